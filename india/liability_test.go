package india_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/matryer/is"
	"github.com/payoutd/payoutd/india"
)

// rs converts whole rupees to paise.
func rs(rupees int64) int64 { return rupees * 100 }

// liabilityCase: receipts are twice the taxable income unless the row tests
// rounding. Figures are in rupees; the comment beside each row is the hand
// computation (L = lakh, Cr = crore).
type liabilityCase struct {
	name                                  string
	receipts                              int64 // paise
	ti, tax, rebate, surcharge, cess, due int64 // paise
}

// FY 2023-24: 0–3 L nil, 3–6 L 5%, 6–9 L 10%, 9–12 L 15%, 12–15 L 20%, >15 L 30%;
// rebate ≤ ₹25,000 if TI ≤ ₹7 L.
var casesFY2023 = []liabilityCase{
	{"Zero", 0, 0, 0, 0, 0, 0, 0},
	// 5%×3L=15,000 + 10%×1L=10,000 = 25,000, all rebated.
	{"AtRebateLimit", rs(14_00_000), rs(7_00_000), rs(25_000), rs(25_000), 0, 0, 0},
	// 15,000 + 10%×1.1L=11,000 = 26,000; capped at 10,000 over the limit: rebate 16,000; cess 400.
	{"RebateMarginalRelief", rs(14_20_000), rs(7_10_000), rs(26_000), rs(16_000), 0, rs(400), rs(10_400)},
	// 27,000 capped at 20,000: rebate 7,000; cess 800.
	{"RebateMarginalRelief720", rs(14_40_000), rs(7_20_000), rs(27_000), rs(7_000), 0, rs(800), rs(20_800)},
	// 28,000 < 30,000 over the limit: no rebate; cess 1,120.
	{"AboveRebateRelief", rs(14_60_000), rs(7_30_000), rs(28_000), 0, 0, rs(1_120), rs(29_120)},
	// 15,000 + 30,000 + 15%×1L=15,000 = 60,000; cess 2,400.
	{"Middle", rs(20_00_000), rs(10_00_000), rs(60_000), 0, 0, rs(2_400), rs(62_400)},
	// 15,000+30,000+45,000+60,000 = 1,50,000 + 30%×15L=4,50,000 = 6,00,000; cess 24,000.
	{"Receipts60L", rs(60_00_000), rs(30_00_000), rs(6_00_000), 0, 0, rs(24_000), rs(6_24_000)},
	// tax(50L) = 1,50,000 + 30%×35L = 12,00,000; tax = 12,03,000; 10% = 1,20,300 but
	// relief caps it at 12,00,000 + 10,000 − 12,03,000 = 7,000; cess 4%×12,10,000 = 48,400.
	{"SurchargeMarginalRelief", rs(1_00_20_000), rs(50_10_000), rs(12_03_000), 0, rs(7_000), rs(48_400), rs(12_58_400)},
	// 12,60,000; 10% = 1,26,000 < relief cap 1,40,000; cess 4%×13,86,000 = 55,440.
	{"Surcharge10", rs(1_04_00_000), rs(52_00_000), rs(12_60_000), 0, rs(1_26_000), rs(55_440), rs(14_41_440)},
}

// FY 2024-25: 0–3 L nil, 3–7 L 5%, 7–10 L 10%, 10–12 L 15%, 12–15 L 20%, >15 L 30%;
// rebate ≤ ₹25,000 if TI ≤ ₹7 L.
var casesFY2024 = []liabilityCase{
	{"Zero", 0, 0, 0, 0, 0, 0, 0},
	// 5%×4L = 20,000, all rebated (below the ₹25,000 maximum).
	{"AtRebateLimit", rs(14_00_000), rs(7_00_000), rs(20_000), rs(20_000), 0, 0, 0},
	// 20,000 + 1,000 = 21,000 capped at 10,000: rebate 11,000; cess 400.
	{"RebateMarginalRelief", rs(14_20_000), rs(7_10_000), rs(21_000), rs(11_000), 0, rs(400), rs(10_400)},
	// 22,000 capped at 20,000: rebate 2,000; cess 800.
	{"RebateMarginalRelief720", rs(14_40_000), rs(7_20_000), rs(22_000), rs(2_000), 0, rs(800), rs(20_800)},
	// 23,000 < 30,000: no rebate; cess 920.
	{"AboveRebateRelief", rs(14_60_000), rs(7_30_000), rs(23_000), 0, 0, rs(920), rs(23_920)},
	// 20,000 + 10%×3L = 50,000; cess 2,000.
	{"Middle", rs(20_00_000), rs(10_00_000), rs(50_000), 0, 0, rs(2_000), rs(52_000)},
	// 20,000+30,000+30,000+60,000 = 1,40,000 + 4,50,000 = 5,90,000; cess 23,600.
	{"Receipts60L", rs(60_00_000), rs(30_00_000), rs(5_90_000), 0, 0, rs(23_600), rs(6_13_600)},
	// tax(50L) = 1,40,000 + 10,50,000 = 11,90,000; tax 11,93,000; surcharge capped at
	// 11,90,000 + 10,000 − 11,93,000 = 7,000; cess 4%×12,00,000 = 48,000.
	{"SurchargeMarginalRelief", rs(1_00_20_000), rs(50_10_000), rs(11_93_000), 0, rs(7_000), rs(48_000), rs(12_48_000)},
	// 12,50,000; 10% = 1,25,000 < cap 1,40,000; cess 4%×13,75,000 = 55,000.
	{"Surcharge10", rs(1_04_00_000), rs(52_00_000), rs(12_50_000), 0, rs(1_25_000), rs(55_000), rs(14_30_000)},
}

// FY 2025-26 (and 2026-27, same figures): 0–4 L nil, 4–8 L 5%, 8–12 L 10%,
// 12–16 L 15%, 16–20 L 20%, 20–24 L 25%, >24 L 30%; rebate ≤ ₹60,000 if TI ≤ ₹12 L.
var casesFY2025 = []liabilityCase{
	{"Zero", 0, 0, 0, 0, 0, 0, 0},
	// A single paisa: half of it rounds up to 1 paisa of income, ₹0 after s.288A.
	{"OnePaisa", 1, 0, 0, 0, 0, 0, 0},
	// 5%×4L=20,000 + 10%×4L=40,000 = 60,000, all rebated.
	{"AtRebateLimit", rs(24_00_000), rs(12_00_000), rs(60_000), rs(60_000), 0, 0, 0},
	// 60,000 + 15%×10,000 = 61,500 capped at 10,000: rebate 51,500; cess 400.
	{"RebateMarginalRelief", rs(24_20_000), rs(12_10_000), rs(61_500), rs(51_500), 0, rs(400), rs(10_400)},
	// A public AY 2026-27 test file's worked example: 64,500, rebate 34,500, tax 30,000, cess 1,200.
	{"FactsExample", rs(24_60_000), rs(12_30_000), rs(64_500), rs(34_500), 0, rs(1_200), rs(31_200)},
	// 72,000 < 80,000 over the limit: no rebate; cess 2,880.
	{"AboveRebateRelief", rs(25_60_000), rs(12_80_000), rs(72_000), 0, 0, rs(2_880), rs(74_880)},
	// 60,000 + 15%×4L=60,000 + 20%×2L=40,000 = 1,60,000; cess 6,400.
	{"Middle", rs(36_00_000), rs(18_00_000), rs(1_60_000), 0, 0, rs(6_400), rs(1_66_400)},
	// 20k+40k+60k+80k+1,00k = 3,00,000 + 30%×6L=1,80,000 = 4,80,000; cess 19,200.
	{"Receipts60L", rs(60_00_000), rs(30_00_000), rs(4_80_000), 0, 0, rs(19_200), rs(4_99_200)},
	// tax(50L) = 3,00,000 + 30%×26L = 10,80,000; tax 10,83,000; 10% = 1,08,300 capped at
	// 10,80,000 + 10,000 − 10,83,000 = 7,000; cess 4%×10,90,000 = 43,600.
	{"SurchargeMarginalRelief", rs(1_00_20_000), rs(50_10_000), rs(10_83_000), 0, rs(7_000), rs(43_600), rs(11_33_600)},
	// 11,40,000; 10% = 1,14,000 < cap 1,40,000; cess 4%×12,54,000 = 50,160.
	{"Surcharge10", rs(1_04_00_000), rs(52_00_000), rs(11_40_000), 0, rs(1_14_000), rs(50_160), rs(13_04_160)},
	// tax(1Cr) = 25,80,000, +10% = 28,38,000; tax 25,83,000; 15% = 3,87,450 capped at
	// 28,38,000 + 10,000 − 25,83,000 = 2,65,000; cess 4%×28,48,000 = 1,13,920.
	{"Surcharge15MarginalRelief", rs(2_00_20_000), rs(1_00_10_000), rs(25_83_000), 0, rs(2_65_000), rs(1_13_920), rs(29_61_920)},
	// tax 40,80,003; 15% = 6,12,000.45 → ₹6,12,000 (cap 37,58,007); cess
	// 4%×46,92,003 = 1,87,680.12 → ₹1,87,680; total 48,79,683 → 48,79,680.
	{"Surcharge15Paise", rs(3_00_00_020), rs(1_50_00_010), rs(40_80_003), 0, rs(6_12_000), rs(1_87_680), rs(48_79_680)},
	// tax(2Cr) = 55,80,000, +15% = 64,17,000; tax 55,83,000; 25% = 13,95,750 capped at
	// 64,17,000 + 10,000 − 55,83,000 = 8,44,000; cess 4%×64,27,000 = 2,57,080.
	{"Surcharge25MarginalRelief", rs(4_00_20_000), rs(2_00_10_000), rs(55_83_000), 0, rs(8_44_000), rs(2_57_080), rs(66_84_080)},
	// Just above 5 Cr the old regime's 37% would apply; the new regime caps it at 25%:
	// tax 55,80,000 + 30%×3,00,10,000 = 1,45,83,000; 25% = 36,45,750; cess 4%×1,82,28,750 = 7,29,150.
	{"SurchargeCappedAbove5Cr", rs(10_00_20_000), rs(5_00_10_000), rs(1_45_83_000), 0, rs(36_45_750), rs(7_29_150), rs(1_89_57_900)},
	// 55,80,000 + 30%×4Cr = 1,75,80,000; 25% = 43,95,000; cess 4%×2,19,75,000 = 8,79,000.
	{"Surcharge6Cr", rs(12_00_00_000), rs(6_00_00_000), rs(1_75_80_000), 0, rs(43_95_000), rs(8_79_000), rs(2_28_54_000)},
	// Receipts ₹24,60,008.49 → ₹24,60,008 in the return → income ₹12,30,004 →
	// s.288A rounds the last figure 4 down → ₹12,30,000.
	{"TIRoundsDown", rs(24_60_008) + 49, rs(12_30_000), rs(64_500), rs(34_500), 0, rs(1_200), rs(31_200)},
	// s.288A: income ₹12,30,005 → ₹12,30,010; tax 64,501.50 → ₹64,502 capped at
	// 30,010 (rebate 34,492); cess 1,200.40 → ₹1,200; total 31,210 (s.288B).
	{"TIRoundsUp", rs(24_60_010), rs(12_30_010), rs(64_502), rs(34_492), 0, rs(1_200), rs(31_210)},
	// 72,000 + 1.50 = 72,001.50 → ₹72,002; cess 2,880.08 → ₹2,880; total 74,882 → s.288B 74,880.
	{"DueRoundsDown", rs(25_60_020), rs(12_80_010), rs(72_002), 0, 0, rs(2_880), rs(74_880)},
	// 1,60,000 + 20%×30 = 1,60,006; cess 6,400.24 → ₹6,400; total 1,66,406 → 1,66,410.
	{"DueRoundsUp", rs(36_00_060), rs(18_00_030), rs(1_60_006), 0, 0, rs(6_400), rs(1_66_410)},
}

func TestComputeLiability(t *testing.T) {
	for _, year := range []struct {
		startYear int
		cases     []liabilityCase
	}{
		{2023, casesFY2023},
		{2024, casesFY2024},
		{2025, casesFY2025},
		{2026, casesFY2025}, // Budget 2026 kept the slabs and the rebate
	} {
		fy := india.FY{StartYear: year.startYear}
		for _, c := range year.cases {
			t.Run(fmt.Sprintf("%s/%s", fy, c.name), func(t *testing.T) {
				is := is.New(t)
				l, err := india.ComputeLiability(fy, c.receipts)
				is.NoErr(err)
				is.Equal(l.FY, fy)
				is.Equal(l.GrossReceipts, c.receipts)
				// 50% of the receipts in whole rupees (half-up), rounded up.
				half := ((c.receipts+50)/100 + 1) / 2 * 100
				if c.receipts <= rs(75_00_000) {
					is.True(l.Presumptive)
					is.Equal(l.PresumptiveIncome, half)
				} else { // above the s.44ADA limit the income is an illustration
					is.True(!l.Presumptive)
					is.Equal(l.PresumptiveIncome, int64(0))
				}
				is.Equal(l.TaxableIncome, c.ti)
				is.Equal(l.TaxOnIncome, c.tax)
				is.Equal(l.Rebate87A, c.rebate)
				is.Equal(l.Surcharge, c.surcharge)
				is.Equal(l.Cess, c.cess)
				is.Equal(l.NetTax, c.tax-c.rebate+c.surcharge+c.cess)
				is.Equal(l.EstimatedTaxDue, c.due)
				is.True(!l.Provisional)
			})
		}
	}
}

// TestComputeLiabilityNoCliff sweeps taxable income across the rebate and
// surcharge thresholds: with both marginal reliefs, earning ₹10 more never
// lowers the tax and never raises it by much more than the ₹10 itself
// (at most ₹10 plus 4% cess, plus the ₹10 of s.288B rounding).
func TestComputeLiabilityNoCliff(t *testing.T) {
	for _, startYear := range []int{2023, 2024, 2025, 2026} {
		fy := india.FY{StartYear: startYear}
		r, err := india.RulesFor(fy)
		is.New(t).NoErr(err)
		centres := []int64{r.RebateLimit}
		for _, b := range r.SurchargeBands {
			centres = append(centres, b.Above)
		}
		for _, centre := range centres {
			t.Run(fmt.Sprintf("%s/%d", fy, centre/100), func(t *testing.T) {
				is := is.New(t)
				const step = 10 * 100 // ₹10 of taxable income
				prev := int64(-1)
				for ti := centre - 2_00_000*100; ti <= centre+2_00_000*100; ti += step {
					l, err := india.ComputeLiability(fy, 2*ti)
					is.NoErr(err)
					is.Equal(l.TaxableIncome, ti)
					if prev >= 0 {
						is.True(l.EstimatedTaxDue >= prev)                   // never falls as income rises
						is.True(l.EstimatedTaxDue-prev <= step*104/100+1000) // no cliff
					}
					prev = l.EstimatedTaxDue
				}
			})
		}
	}
}

func TestComputeLiabilityErrors(t *testing.T) {
	t.Run("ErrUnsupportedFY", func(t *testing.T) {
		is := is.New(t)
		// Before the first table there is nothing to estimate with; a later
		// year is answered provisionally (TestProvisionalYear).
		_, err := india.ComputeLiability(india.FY{StartYear: 2022}, rs(10_00_000))
		is.True(errors.Is(err, india.ErrUnsupportedFY))
		for _, y := range []int{2022, 2027} {
			_, err = india.RulesFor(india.FY{StartYear: y})
			is.True(errors.Is(err, india.ErrUnsupportedFY))
		}
	})
	t.Run("ErrNegativeReceipts", func(t *testing.T) {
		_, err := india.ComputeLiability(india.FY{StartYear: 2025}, -1)
		is.New(t).True(errors.Is(err, india.ErrNegativeReceipts))
	})
	t.Run("ErrCashAboveGross", func(t *testing.T) {
		is := is.New(t)
		for _, cash := range []int64{-1, rs(10) + 1} {
			_, err := india.Compute(india.LiabilityInput{FY: india.FY{StartYear: 2025}, GrossReceipts: rs(10), CashReceipts: cash})
			is.True(errors.Is(err, india.ErrCashAboveGross))
		}
	})
	t.Run("ErrReceiptsTooLarge", func(t *testing.T) {
		_, err := india.ComputeLiability(india.FY{StartYear: 2025}, 1<<62)
		is.New(t).True(errors.Is(err, india.ErrReceiptsTooLarge))
	})
}

func TestRulesFor(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		is := is.New(t)
		r, err := india.RulesFor(india.FY{StartYear: 2025})
		is.NoErr(err)
		is.Equal(r.FY, india.FY{StartYear: 2025})
		is.Equal(len(r.Slabs), 7)
		is.Equal(r.RebateLimit, rs(12_00_000))
		is.Equal(r.RebateMax, rs(60_000))
		is.Equal(r.CessPercent, int64(4))
		is.Equal(r.SurchargeCapPercent, int64(25))
		is.Equal(r.PresumptivePercent, int64(50))
		is.Equal(r.PresumptiveReceiptsLimit, rs(50_00_000))
		is.Equal(r.PresumptiveReceiptsLimitLowCash, rs(75_00_000))
		is.Equal(india.ActOf(india.FY{StartYear: 2026}).Regime, "s.202")
		is.Equal(india.ActOf(india.FY{StartYear: 2025}).Regime, "s.115BAC")
	})
	t.Run("CopyIsPrivate", func(t *testing.T) {
		is := is.New(t)
		r, _ := india.RulesFor(india.FY{StartYear: 2025})
		r.Slabs[1].RatePercent = 99
		r.SurchargeBands[0].RatePercent = 99
		again, _ := india.RulesFor(india.FY{StartYear: 2025})
		is.Equal(again.Slabs[1].RatePercent, int64(5))
		is.Equal(again.SurchargeBands[0].RatePercent, int64(10))
	})
}
