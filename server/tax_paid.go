package server

import (
	"encoding/json"

	"github.com/payoutd/payoutd/india"
)

// taxPaidView is the liability's taxes paid: the year's recorded challans
// that are not reversed, by kind.
type taxPaidView struct {
	Advance        json.Number `json:"advance"`
	SelfAssessment json.Number `json:"selfAssessment"`
	Total          json.Number `json:"total"`
	Challans       int         `json:"challans"`
}

// attachTaxPaid adds taxes paid, balance or refund, and each instalment's
// paid-by-date and shortfall to the liability view. Instalments are matched
// by due date, so a schedule the view built differently is left alone.
func attachTaxPaid(v *liabilityView, tp india.TaxPaid, challans int) {
	v.TaxPaid = &taxPaidView{Advance: inr(tp.Advance), SelfAssessment: inr(tp.SelfAssessment), Total: inr(tp.Total), Challans: challans}
	v.BalanceDue, v.RefundDue = inr(tp.BalanceDue), inr(tp.RefundDue)
	for i := range v.AdvanceTaxSchedule {
		for _, in := range tp.Instalments {
			if in.DueDate == v.AdvanceTaxSchedule[i].DueDate {
				iv := &v.AdvanceTaxSchedule[i]
				iv.Paid, iv.PaidByDate, iv.Shortfall = in.Paid(), inr(in.PaidByDate), inr(in.Shortfall)
			}
		}
	}
}
