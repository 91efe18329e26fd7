package india_test

import (
	"testing"

	"github.com/matryer/is"
	"github.com/payoutd/payoutd/india"
)

// TestComputeInterest: interest for deferment (s.234C; s.425 from tax year
// 2026-27) and for default (s.234B; s.424), on amounts rounded down to ₹100
// with a part of a month counting whole (rule 119A), from the recorded
// challans and the balance paid on payOn.
func TestComputeInterest(t *testing.T) {
	fy := india.FY{StartYear: 2025}
	march := func(tax int64) []india.Instalment {
		return []india.Instalment{{DueDate: "2026-03-15", PercentDue: 100, Amount: tax}}
	}
	four := []india.Instalment{
		{DueDate: "2025-06-15", PercentDue: 15, Amount: rs(15_000)},
		{DueDate: "2025-09-15", PercentDue: 45, Amount: rs(45_000)},
		{DueDate: "2025-12-15", PercentDue: 75, Amount: rs(75_000)},
		{DueDate: "2026-03-15", PercentDue: 100, Amount: rs(1_00_000)},
	}
	for _, c := range []struct {
		name        string
		tax         int64
		presumptive bool
		schedule    []india.Instalment
		payments    []india.TaxPayment
		payOn       string
		deferment   []int64 // per instalment
		def         int64
		months      []int64
	}{
		// 15 March shortfalls of nothing, part and all.
		{"MarchShortfallNone", rs(52_000), true, march(rs(52_000)), []india.TaxPayment{adv("2026-03-10", rs(52_000))}, "2026-07-31",
			[]int64{0}, 0, nil},
		{"MarchShortfallPart", rs(52_000), true, march(rs(52_000)), []india.TaxPayment{adv("2026-03-10", rs(30_000))}, "2026-03-31",
			[]int64{rs(220)}, 0, nil},
		{"MarchShortfallAll", rs(52_000), true, march(rs(52_000)), nil, "2026-03-20",
			[]int64{rs(520)}, 0, nil},
		// Nothing paid as advance tax: self-assessment in July is four
		// months (April to July) of 1%, in September six.
		{"SelfAssessmentJuly", rs(52_000), true, march(rs(52_000)), []india.TaxPayment{sat("2026-07-15", rs(52_000))}, "2026-12-01",
			[]int64{rs(520)}, rs(2_080), []int64{4}},
		{"SelfAssessmentSeptember", rs(52_000), true, march(rs(52_000)), []india.TaxPayment{sat("2026-09-10", rs(52_000))}, "2026-12-01",
			[]int64{rs(520)}, rs(3_120), []int64{6}},
		// The balance not yet paid is paid on payOn: 1 April is one month.
		{"BalancePaidOnFirstApril", rs(52_000), true, march(rs(52_000)), nil, "2026-04-01",
			[]int64{rs(520)}, rs(520), []int64{1}},
		// Rule 119A: ₹12,345 short runs interest on ₹12,300. A part payment
		// in May ends the first stretch and goes first to the ₹369 of
		// interest accrued (₹123 + ₹246: Explanation to s.140A(1)), so
		// ₹7,714 of tax stays short and runs from June to August on ₹7,700.
		{"RoundedDownAndSplit", rs(52_345), true, march(rs(52_345)),
			[]india.TaxPayment{adv("2026-03-01", rs(40_000)), sat("2026-05-10", rs(5_000))}, "2026-08-20",
			[]int64{rs(123)}, rs(246 + 231), []int64{2, 3}},
		// ₹30,000 on 15 July after ₹2,600 of interest accrued (₹520 for
		// March, ₹2,080 for April to July): ₹27,400 reaches the tax, so
		// ₹24,600 runs August and September, ₹492; ₹2,572 in all, where
		// applying it all to tax would leave ₹22,000 and ₹2,520.
		{"SelfAssessmentInterestFirst", rs(52_000), true, march(rs(52_000)),
			[]india.TaxPayment{sat("2026-07-15", rs(30_000))}, "2026-09-10",
			[]int64{rs(520)}, rs(2_572), []int64{4, 2}},
		// A payment smaller than the interest accrued reaches no tax.
		{"SelfAssessmentAllToInterest", rs(52_000), true, march(rs(52_000)),
			[]india.TaxPayment{sat("2026-04-20", rs(1_000))}, "2026-05-10",
			[]int64{rs(520)}, rs(520 + 520), []int64{1, 1}},
		// 90% paid as advance tax: no default interest, deferment only.
		{"NinetyPercentPaid", rs(50_000), true, march(rs(50_000)),
			[]india.TaxPayment{adv("2026-03-31", rs(45_000))}, "2026-06-01",
			[]int64{rs(500)}, 0, nil},
		// Four instalments: 3% on June, September and December shortfalls,
		// 1% on March's.
		{"FourInstalments", rs(1_00_000), false, four,
			[]india.TaxPayment{adv("2025-06-10", rs(10_000)), adv("2025-10-01", rs(40_000))}, "2026-03-31",
			[]int64{rs(150), rs(1_050), rs(750), rs(500)}, 0, nil},
		// 12% by June and 36% by September are safe.
		{"SafeHarbours", rs(1_00_000), false, four,
			[]india.TaxPayment{adv("2025-06-10", rs(12_000)), adv("2025-09-10", rs(24_000)), adv("2025-12-10", rs(64_000))}, "2026-03-31",
			[]int64{0, 0, 0, 0}, 0, nil},
		// Below ₹10,000 no advance tax is payable, so no interest either.
		{"NoAdvanceTax", rs(9_990), true, nil, nil, "2026-12-31", nil, 0, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			got, err := india.ComputeInterest(fy, c.tax, c.presumptive, c.schedule, c.payments, c.payOn)
			is.NoErr(err)
			is.Equal(len(got.Instalments), len(c.deferment))
			var sum int64
			for i, in := range got.Instalments {
				is.Equal(in.Interest, c.deferment[i])
				is.Equal(in.Base%rs(100), int64(0))
				sum += in.Interest
			}
			is.Equal(got.Deferment, sum)
			is.Equal(got.Default, c.def)
			is.Equal(len(got.Periods), len(c.months))
			for i, p := range got.Periods {
				is.Equal(p.Months, c.months[i])
			}
			is.Equal(got.Total, got.Deferment+got.Default)
		})
	}
	t.Run("ErrPayOn", func(t *testing.T) {
		_, err := india.ComputeInterest(fy, rs(100), true, nil, nil, "31-03-2026")
		is.New(t).True(err != nil)
	})
}

// TestComputePosition: the balance is tax plus interest less taxes paid,
// payable rounded to ₹10.
func TestComputePosition(t *testing.T) {
	is := is.New(t)
	l, err := india.ComputeLiability(india.FY{StartYear: 2025}, rs(24_60_000))
	is.NoErr(err)
	p, err := india.ComputePosition(l, []india.TaxPayment{sat("2026-09-10", rs(10_000))}, "2026-10-05")
	is.NoErr(err)
	is.True(p.Interest.Total > 0)
	is.Equal(p.Paid.Shortfall, l.NetTax+p.Interest.Total-rs(10_000))
	is.Equal(p.Paid.BalanceDue, india.RoundPayable(p.Paid.Shortfall))
	is.Equal(p.Paid.RefundDue, int64(0))
}
