package india

import (
	"fmt"
	"time"
)

// Kinds of tax payment a challan can carry. Both are paid with challan
// ITNS 280: advance tax (minor head 100) during the financial year,
// self-assessment tax (minor head 300) after it, before filing the return.
const (
	PaymentAdvance        = "advance"
	PaymentSelfAssessment = "self_assessment"
)

// TaxPayment is one challan as the liability counts it. Amount is paise;
// PaidOn is the challan's date of deposit, "YYYY-MM-DD" in India.
type TaxPayment struct {
	Kind   string
	PaidOn string
	Amount int64
}

// InstalmentPaid is an advance-tax instalment with what was paid against it.
// PaidByDate is all advance tax deposited on or before DueDate; Shortfall is
// what the cumulative amount due still lacks on that date, the basis of
// interest under s.234C (which payoutd shows, never computes).
type InstalmentPaid struct {
	Instalment
	PaidByDate int64
	Shortfall  int64
}

// Paid reports whether the cumulative amount due by the instalment's date
// had been paid by then; an instalment of nothing is paid.
func (i InstalmentPaid) Paid() bool { return i.Shortfall == 0 }

// TaxPaid is a financial year's taxes paid set against its tax due. Amounts
// are paise. At most one of BalanceDue and RefundDue is positive.
type TaxPaid struct {
	Advance        int64
	SelfAssessment int64
	Total          int64
	// BalanceDue is the tax due less taxes paid, never negative, and
	// RefundDue the taxes paid beyond it, each rounded to the nearest ₹10 as
	// s.288B (2025 Act: s.516) rounds any amount payable and any refund due;
	// Shortfall and Excess are the same differences before that rounding.
	BalanceDue  int64
	RefundDue   int64
	Shortfall   int64
	Excess      int64
	Instalments []InstalmentPaid
}

// ApplyTaxPaid sets the year's payments against taxDue and its advance-tax
// schedule. Only advance tax counts towards an instalment: self-assessment
// tax is paid after the year, so it can never meet an instalment's date.
// A payment of another kind is an error rather than a silent zero.
func ApplyTaxPaid(taxDue int64, schedule []Instalment, payments []TaxPayment) (TaxPaid, error) {
	var t TaxPaid
	for _, p := range payments {
		if p.Amount <= 0 {
			return TaxPaid{}, fmt.Errorf("india: tax payment of %d paise: amounts must be positive", p.Amount)
		}
		switch p.Kind {
		case PaymentAdvance:
			t.Advance += p.Amount
		case PaymentSelfAssessment:
			t.SelfAssessment += p.Amount
		default:
			return TaxPaid{}, fmt.Errorf("india: unknown tax payment kind %q", p.Kind)
		}
	}
	t.Total = t.Advance + t.SelfAssessment
	t.Shortfall, t.Excess = max(taxDue-t.Total, 0), max(t.Total-taxDue, 0)
	t.BalanceDue, t.RefundDue = RoundPayable(t.Shortfall), RoundPayable(t.Excess)
	t.Instalments = make([]InstalmentPaid, 0, len(schedule))
	for _, in := range schedule {
		var by int64
		for _, p := range payments {
			// Dates are "YYYY-MM-DD", so text order is date order.
			if p.Kind == PaymentAdvance && p.PaidOn <= in.DueDate {
				by += p.Amount
			}
		}
		t.Instalments = append(t.Instalments, InstalmentPaid{Instalment: in, PaidByDate: by, Shortfall: max(in.Amount-by, 0)})
	}
	return t, nil
}

// CheckPaymentDate says why a challan of kind dated paidOn cannot belong to
// fy on the day now is in India, or returns "" when it can. paidOn is a
// calendar date (its clock and zone are ignored). The
// income-tax department's return utility classifies challans by date: one
// deposited by 31 March is advance tax of that year, a later one
// self-assessment tax; payoutd keeps to the same split so the liability and
// the ITR-4 export agree.
func CheckPaymentDate(fy FY, kind string, paidOn, now time.Time) string {
	day := func(t time.Time) string { return t.Format(time.DateOnly) }
	first, last := day(fy.Start().In(IST)), day(fy.End().In(IST).AddDate(0, 0, -1))
	on := day(paidOn)
	switch {
	case on > day(now.In(IST)):
		return "must not be in the future"
	case on < first:
		return "must not be before the financial year began (" + first + ")"
	case kind == PaymentAdvance && on > last:
		return "advance tax is paid by " + last + "; a later challan is self-assessment tax"
	case kind == PaymentSelfAssessment && on <= last:
		return "self-assessment tax is paid after the financial year ends (" + last + "); a challan paid by then is advance tax"
	}
	return ""
}
