package india_test

import (
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/payoutd/payoutd/india"
)

func adv(on string, paise int64) india.TaxPayment {
	return india.TaxPayment{Kind: india.PaymentAdvance, PaidOn: on, Amount: paise}
}

func sat(on string, paise int64) india.TaxPayment {
	return india.TaxPayment{Kind: india.PaymentSelfAssessment, PaidOn: on, Amount: paise}
}

// TestRoundPayable: the balance payable and the refund due go to the
// nearest ₹10 (s.288B; s.516), paise ignored, 5 rounding up.
func TestRoundPayable(t *testing.T) {
	march := []india.Instalment{{DueDate: "2026-03-15", PercentDue: 100, Amount: rs(20_000)}}
	cases := []struct {
		name            string
		due             int64
		paid            int64
		balance, refund int64
	}{
		{"Balance9984", rs(29_984), rs(20_000), rs(9_980), 0},
		{"Balance9985", rs(29_985), rs(20_000), rs(9_990), 0},
		{"Balance9984AndPaise", rs(29_984) + 99, rs(20_000), rs(9_980), 0},
		{"Refund4748", rs(15_252), rs(20_000), 0, rs(4_750)},
		{"Refund4744", rs(15_256), rs(20_000), 0, rs(4_740)},
		{"Exact", rs(20_000), rs(20_000), 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			got, err := india.ApplyTaxPaid(c.due, march, []india.TaxPayment{adv("2026-03-01", c.paid)})
			is.NoErr(err)
			is.Equal(got.BalanceDue, c.balance)
			is.Equal(got.RefundDue, c.refund)
			is.Equal(got.Shortfall-got.Excess, c.due-c.paid) // the exact difference is kept beside
		})
	}
}

// TestApplyTaxPaid: the 44ADA schedule (all of it by 15 March) and the
// four-instalment one, against payments before, on and after each date.
func TestApplyTaxPaid(t *testing.T) {
	march := []india.Instalment{{DueDate: "2026-03-15", PercentDue: 100, Amount: rs(31_200)}}
	four := []india.Instalment{
		{DueDate: "2025-06-15", PercentDue: 15, Amount: rs(15_000)},
		{DueDate: "2025-09-15", PercentDue: 45, Amount: rs(45_000)},
		{DueDate: "2025-12-15", PercentDue: 75, Amount: rs(75_000)},
		{DueDate: "2026-03-15", PercentDue: 100, Amount: rs(1_00_000)},
	}
	cases := []struct {
		name                 string
		due                  int64
		schedule             []india.Instalment
		payments             []india.TaxPayment
		advance, self, total int64
		balance, refund      int64
		paidBy, shortfall    []int64
	}{
		{"NothingPaid", rs(31_200), march, nil, 0, 0, 0, rs(31_200), 0, []int64{0}, []int64{rs(31_200)}},
		{"PaidInFullBeforeDate", rs(31_200), march, []india.TaxPayment{adv("2025-12-01", rs(31_200))},
			rs(31_200), 0, rs(31_200), 0, 0, []int64{rs(31_200)}, []int64{0}},
		// On the due date itself counts.
		{"PaidOnDueDate", rs(31_200), march, []india.TaxPayment{adv("2026-03-15", rs(31_200))},
			rs(31_200), 0, rs(31_200), 0, 0, []int64{rs(31_200)}, []int64{0}},
		// Paid by 31 March is advance tax but too late for 15 March: the
		// balance is settled, the instalment still shows the shortfall.
		{"PaidAfterDueDate", rs(31_200), march, []india.TaxPayment{adv("2026-03-16", rs(31_200))},
			rs(31_200), 0, rs(31_200), 0, 0, []int64{0}, []int64{rs(31_200)}},
		{"PartBeforePartAfter", rs(31_200), march, []india.TaxPayment{adv("2026-01-10", rs(20_000)), adv("2026-03-31", rs(11_200))},
			rs(31_200), 0, rs(31_200), 0, 0, []int64{rs(20_000)}, []int64{rs(11_200)}},
		// Self-assessment never meets an instalment but settles the balance.
		{"SelfAssessmentSettlesBalance", rs(31_200), march, []india.TaxPayment{adv("2026-03-01", rs(30_000)), sat("2026-07-20", rs(1_200))},
			rs(30_000), rs(1_200), rs(31_200), 0, 0, []int64{rs(30_000)}, []int64{rs(1_200)}},
		{"OnePaisaShort", rs(31_200), march, []india.TaxPayment{adv("2026-03-01", rs(31_200)-1)},
			rs(31_200) - 1, 0, rs(31_200) - 1, 1, 0, []int64{rs(31_200) - 1}, []int64{1}},
		{"OnePaisaOver", rs(31_200), march, []india.TaxPayment{adv("2026-03-01", rs(31_200)+1)},
			rs(31_200) + 1, 0, rs(31_200) + 1, 0, 1, []int64{rs(31_200) + 1}, []int64{0}},
		{"NoTaxDuePaymentRefunded", 0, []india.Instalment{{DueDate: "2026-03-15", PercentDue: 100}}, []india.TaxPayment{sat("2026-05-01", rs(500))},
			0, rs(500), rs(500), 0, rs(500), []int64{0}, []int64{0}},
		// Four instalments: 10,000 by June (5,000 short), 40,000 more in
		// October (after September: 35,000 short there), nothing later.
		{"FourInstalments", rs(1_00_000), four, []india.TaxPayment{adv("2025-06-10", rs(10_000)), adv("2025-10-01", rs(40_000))},
			rs(50_000), 0, rs(50_000), rs(50_000), 0,
			[]int64{rs(10_000), rs(10_000), rs(50_000), rs(50_000)}, []int64{rs(5_000), rs(35_000), rs(25_000), rs(50_000)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			got, err := india.ApplyTaxPaid(c.due, c.schedule, c.payments)
			is.NoErr(err)
			is.Equal(got.Advance, c.advance)
			is.Equal(got.SelfAssessment, c.self)
			is.Equal(got.Total, c.total)
			is.Equal(got.Shortfall, c.balance)
			is.Equal(got.Excess, c.refund)
			is.Equal(got.BalanceDue, india.RoundPayable(c.balance))
			is.Equal(got.RefundDue, india.RoundPayable(c.refund))
			is.Equal(len(got.Instalments), len(c.schedule))
			for i, in := range got.Instalments {
				is.Equal(in.Instalment, c.schedule[i])
				is.Equal(in.PaidByDate, c.paidBy[i])
				is.Equal(in.Shortfall, c.shortfall[i])
				is.Equal(in.Paid(), c.shortfall[i] == 0)
			}
		})
	}

	t.Run("ErrUnknownKind", func(t *testing.T) {
		_, err := india.ApplyTaxPaid(rs(100), march, []india.TaxPayment{{Kind: "tds", PaidOn: "2026-01-01", Amount: 1}})
		is.New(t).True(err != nil)
	})
	t.Run("ErrNonPositive", func(t *testing.T) {
		_, err := india.ApplyTaxPaid(rs(100), march, []india.TaxPayment{adv("2026-01-01", 0)})
		is.New(t).True(err != nil)
	})
}

// TestCheckPaymentDate: the FY's edges in India, by kind, and the future.
func TestCheckPaymentDate(t *testing.T) {
	fy := india.FY{StartYear: 2025}
	// 10:00 IST on 1 June 2026; 31 May 2026 23:00 UTC is already 1 June in India.
	now := time.Date(2026, time.June, 1, 10, 0, 0, 0, india.IST)
	date := func(s string) time.Time {
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	cases := []struct {
		name, kind, on string
		ok             bool
	}{
		{"AdvanceFirstDay", india.PaymentAdvance, "2025-04-01", true},
		{"AdvanceBeforeFY", india.PaymentAdvance, "2025-03-31", false},
		{"AdvanceLastDay", india.PaymentAdvance, "2026-03-31", true},
		{"AdvanceAfterFY", india.PaymentAdvance, "2026-04-01", false},
		{"SelfAssessmentInFY", india.PaymentSelfAssessment, "2026-03-31", false},
		{"SelfAssessmentAfterFY", india.PaymentSelfAssessment, "2026-04-01", true},
		{"SelfAssessmentToday", india.PaymentSelfAssessment, "2026-06-01", true},
		{"SelfAssessmentTomorrow", india.PaymentSelfAssessment, "2026-06-02", false},
		{"SelfAssessmentBeforeFY", india.PaymentSelfAssessment, "2025-01-01", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			msg := india.CheckPaymentDate(fy, c.kind, date(c.on), now)
			is.Equal(msg == "", c.ok) // the message says why when refused
		})
	}
	t.Run("TodayIsIndianDate", func(t *testing.T) {
		is := is.New(t)
		utc := time.Date(2026, time.May, 31, 23, 0, 0, 0, time.UTC) // 1 June 04:30 IST
		is.Equal(india.CheckPaymentDate(fy, india.PaymentSelfAssessment, date("2026-06-01"), utc), "")
	})
}
