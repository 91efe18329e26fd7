package india_test

import (
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/payoutd/payoutd/india"
)

// ist builds an instant from an Indian wall-clock time.
func ist(y int, m time.Month, d, hh, mm int) time.Time {
	return time.Date(y, m, d, hh, mm, 0, 0, india.IST)
}

// The s.44ADA limits, FY 2025-26 slabs (0–4 L nil, 4–8 L 5%, 8–12 L 10%,
// 12–16 L 15%, 16–20 L 20%, 20–24 L 25%, above 30%; cess 4%).
func TestPresumptiveLimits(t *testing.T) {
	fy := india.FY{StartYear: 2025}
	for _, c := range []struct {
		name            string
		gross, cash     int64
		presumptive     bool
		audit           bool
		form            string
		income, ti, due int64 // income is 0 when 44ADA is not available
		instalments     int
		firstInstalment int64
	}{
		// ₹74,99,999 ≤ ₹75 L with no cash: 44ADA. Income ⌈74,99,999 / 2⌉ =
		// 37,50,000; tax 3,00,000 (to 24 L) + 30%×13,50,000 = 7,05,000; cess
		// 28,200; due 7,33,200, all by 15 March.
		{"74,99,999 cash 0", rs(74_99_999), 0, true, false, "ITR-4", rs(37_50_000), rs(37_50_000), rs(7_33_200), 1, rs(7_33_200)},
		// ₹75,00,001 > ₹75 L: books, audit, ITR-3. Illustrative income
		// ⌈37,50,000.5⌉ = 37,50,001 → s.288A 37,50,000, same tax 7,33,200, in
		// four instalments: 15% = 1,09,980.
		{"75,00,001 cash 0", rs(75_00_001), 0, false, true, "ITR-3", 0, rs(37_50_000), rs(7_33_200), 4, rs(1_09_980)},
		// Between ₹50 L and ₹75 L with cash ≤ 5%: still 44ADA, no audit.
		// Income 30 L: 3,00,000 + 30%×6 L = 4,80,000; cess 19,200.
		{"60 L cash 5%", rs(60_00_000), rs(3_00_000), true, false, "ITR-4", rs(30_00_000), rs(30_00_000), rs(4_99_200), 1, rs(4_99_200)},
		// Cash ₹3,00,001 is above 5% of ₹60 L, so the limit is ₹50 L: books.
		{"60 L cash above 5%", rs(60_00_000), rs(3_00_001), false, true, "ITR-3", 0, rs(30_00_000), rs(4_99_200), 4, rs(74_880)},
		// ₹50 L is within the basic limit whatever the cash share. Income 25 L:
		// 3,00,000 + 30%×1 L = 3,30,000; cess 13,200.
		{"50 L all cash", rs(50_00_000), rs(50_00_000), true, false, "ITR-4", rs(25_00_000), rs(25_00_000), rs(3_43_200), 1, rs(3_43_200)},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			l, err := india.Compute(india.LiabilityInput{FY: fy, GrossReceipts: c.gross, CashReceipts: c.cash,
				Today: ist(2025, time.November, 1, 12, 0)})
			is.NoErr(err)
			is.Equal(l.Presumptive, c.presumptive)
			is.Equal(l.AuditRequired, c.audit)
			is.Equal(l.ReturnForm, c.form)
			is.Equal(l.PresumptiveIncome, c.income)
			is.Equal(l.TaxableIncome, c.ti)
			is.Equal(l.EstimatedTaxDue, c.due)
			is.True(l.AdvanceTaxDue)
			is.Equal(len(l.AdvanceTaxSchedule), c.instalments)
			is.Equal(l.AdvanceTaxSchedule[0].Amount, c.firstInstalment)
			msg := l.PresumptiveUnavailable()
			if c.presumptive {
				is.Equal(msg, "")
				return
			}
			for _, want := range []string{"is not available", "books of account (s.44AA)", "tax audit", "s.44AB",
				"ITR-3 (ITR-4 is not the right return)", "four instalments (s.211(1)(a))", "illustration only"} {
				is.True(strings.Contains(msg, want)) // the one wording, with its sections
			}
			is.True(!strings.Contains(msg, "may not"))
		})
	}
}

// Four instalments of ₹7,33,200 with the clock at 1 November 2025 (IST):
// 15% = 1,09,980 by 15 June and 45% = 3,29,940 by 15 September are past
// (s.234C interest runs); 75% = 5,49,900 by 15 December and 100% by
// 15 March 2026 are not.
func TestFourInstalmentSchedule(t *testing.T) {
	is := is.New(t)
	l, err := india.Compute(india.LiabilityInput{FY: india.FY{StartYear: 2025}, GrossReceipts: rs(75_00_001),
		Today: ist(2025, time.November, 1, 0, 0)})
	is.NoErr(err)
	is.Equal(l.AdvanceTaxSchedule, []india.Instalment{
		{DueDate: "2025-06-15", PercentDue: 15, Amount: rs(1_09_980), Past: true},
		{DueDate: "2025-09-15", PercentDue: 45, Amount: rs(3_29_940), Past: true},
		{DueDate: "2025-12-15", PercentDue: 75, Amount: rs(5_49_900), Past: false},
		{DueDate: "2026-03-15", PercentDue: 100, Amount: rs(7_33_200), Past: false},
	})
	is.True(strings.Contains(l.AdvanceTaxNote(), "s.234C"))

	// The due date itself is not past; the day after is (IST).
	for _, c := range []struct {
		today time.Time
		past  bool
	}{
		{ist(2025, time.June, 15, 23, 59), false},
		{ist(2025, time.June, 16, 0, 0), true},
	} {
		l, err := india.Compute(india.LiabilityInput{FY: india.FY{StartYear: 2025}, GrossReceipts: rs(75_00_001), Today: c.today})
		is.NoErr(err)
		is.Equal(l.AdvanceTaxSchedule[0].Past, c.past)
	}
}

// Advance tax only from ₹10,000 of tax (s.208; s.404 from tax year 2026-27).
func TestAdvanceTaxMinimum(t *testing.T) {
	for _, c := range []struct {
		name     string
		fy       int
		receipts int64
		due      int64
		section  string
	}{
		// TI 12,09,610: tax 60,000 + 15%×9,610 = 61,441.50 → 61,442; marginal
		// relief leaves 9,610; cess 384.40 → 384; 9,994 → s.288B 9,990.
		{"9,990", 2025, rs(24_19_220), rs(9_990), "s.208"},
		// TI 12,09,620: 9,620 + cess 384.80 → 385 = 10,005 → s.288B 10,010.
		{"10,010", 2025, rs(24_19_240), rs(10_010), "s.208"},
		{"9,990 under the 2025 Act", 2026, rs(24_19_220), rs(9_990), "s.404"},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			l, err := india.Compute(india.LiabilityInput{FY: india.FY{StartYear: c.fy}, GrossReceipts: c.receipts})
			is.NoErr(err)
			is.Equal(l.EstimatedTaxDue, c.due)
			if c.due < rs(10_000) {
				is.True(!l.AdvanceTaxDue)
				is.Equal(len(l.AdvanceTaxSchedule), 0) // no instalment shown as due
				is.True(strings.Contains(l.AdvanceTaxNote(), "self-assessment tax with the return"))
				is.True(strings.Contains(l.AdvanceTaxNote(), c.section))
				return
			}
			is.True(l.AdvanceTaxDue)
			is.Equal(l.AdvanceTaxSchedule, []india.Instalment{{DueDate: "2026-03-15", PercentDue: 100, Amount: c.due}})
		})
	}
}

// A settlement a minute either side of midnight IST on 31 March falls in
// different years and GST months.
func TestYearEndInIST(t *testing.T) {
	for _, c := range []struct {
		at     time.Time
		fy     string
		period string
		date   string
	}{
		{ist(2026, time.March, 31, 23, 59), "2025-26", "2026-03", "2026-03-31"}, // 18:29 UTC
		{ist(2026, time.April, 1, 0, 1), "2026-27", "2026-04", "2026-04-01"},    // 18:31 UTC on 31 March
	} {
		is := is.New(t)
		utc := c.at.UTC()
		is.Equal(india.FYOf(utc).String(), c.fy)
		is.Equal(india.PeriodOf(utc), c.period)
		is.Equal(india.DateOf(utc), c.date)
	}
}

// From 1 April 2027 the current year has no table yet: it is answered from
// the FY 2026-27 table, every figure labelled provisional, and the supported
// range moves with the clock.
func TestProvisionalYear(t *testing.T) {
	is := is.New(t)
	today := ist(2027, time.April, 1, 0, 0)
	fy := india.FYOf(today)
	is.Equal(fy.String(), "2027-28")

	first, last := india.SupportedYears(today)
	is.Equal(first.String(), "2023-24")
	is.Equal(last.String(), "2028-29")
	first, last = india.SupportedYears(ist(2026, time.November, 25, 12, 0))
	is.Equal(first.String(), "2023-24")
	is.Equal(last.String(), "2027-28") // next year is answered today

	// Same slabs as FY 2026-27: TI 18 L → 1,60,000 + cess 6,400.
	l, err := india.Compute(india.LiabilityInput{FY: fy, GrossReceipts: rs(36_00_000), Today: today})
	is.NoErr(err)
	is.True(l.Provisional)
	is.Equal(l.TableFY.String(), "2026-27")
	is.Equal(l.EstimatedTaxDue, rs(1_66_400))
	is.Equal(l.AdvanceTaxSchedule, []india.Instalment{{DueDate: "2028-03-15", PercentDue: 100, Amount: rs(1_66_400)}})
	is.True(strings.Contains(l.ProvisionalNote(), "tax year 2027-28"))
	is.True(strings.Contains(l.ProvisionalNote(), "tax year 2026-27"))

	enacted, err := india.ComputeLiability(india.FY{StartYear: 2026}, rs(36_00_000))
	is.NoErr(err)
	is.True(!enacted.Provisional)
	is.Equal(enacted.ProvisionalNote(), "")
}

// The tables are one entry per year, ascending without gaps, each complete:
// adding a year is appending an entry.
func TestTaxTablesContiguous(t *testing.T) {
	is := is.New(t)
	first, _ := india.SupportedYears(time.Time{})
	last := india.LatestTableFY()
	for y := first.StartYear; y <= last.StartYear; y++ {
		r, err := india.RulesFor(india.FY{StartYear: y})
		is.NoErr(err)
		is.True(len(r.Slabs) > 0 && r.Slabs[0].From == 0)
		for _, s := range india.ActOf(r.FY).Sections() {
			is.True(s != "")
		}
		is.True(r.PresumptivePercent == 50 && r.CessPercent == 4)
	}
}

// TestMessagesKeepPaise: a sentence states the amount it compares, paise
// and all: ₹75,00,000.83 of receipts exceed the ₹75,00,000 limit.
func TestMessagesKeepPaise(t *testing.T) {
	is := is.New(t)
	l, err := india.ComputeLiability(india.FY{StartYear: 2025}, rs(75_00_000)+83)
	is.NoErr(err)
	is.True(!l.Presumptive)
	msg := l.PresumptiveUnavailable()
	is.True(strings.Contains(msg, "gross receipts of ₹75,00,000.83 exceed ₹75,00,000,")) // the paise that make the difference
}
