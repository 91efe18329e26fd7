package server

import (
	"context"
	"encoding/json"

	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

// taxPaidView is the liability's taxes paid: the year's recorded challans
// that are not reversed, by kind.
type taxPaidView struct {
	Advance        json.Number `json:"advance"`
	SelfAssessment json.Number `json:"selfAssessment"`
	Total          json.Number `json:"total"`
	Challans       int         `json:"challans"`
}

// yearTaxPaid sets the year's recorded challans against its liability.
func (s *Server) yearTaxPaid(ctx context.Context, userID string, l india.Liability) (india.TaxPaid, []store.TaxPayment, error) {
	ps, err := s.db.TaxPaymentsOfYear(ctx, userID, l.FY.String())
	if err != nil {
		return india.TaxPaid{}, nil, err
	}
	in := make([]india.TaxPayment, 0, len(ps))
	for _, p := range ps {
		in = append(in, india.TaxPayment{Kind: p.Kind, PaidOn: p.PaidOn, Amount: p.Amount})
	}
	tp, err := india.ApplyTaxPaid(l.EstimatedTaxDue, l.AdvanceTaxSchedule, in)
	return tp, ps, err
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

// itr4TaxesPaid is the export's input for TaxPaid and Schedule IT: the
// liability's figures and the challans behind them.
func itr4TaxesPaid(tp india.TaxPaid, ps []store.TaxPayment) *documents.ITR4TaxesPaid {
	out := &documents.ITR4TaxesPaid{Advance: tp.Advance, SelfAssessment: tp.SelfAssessment, BalanceDue: tp.BalanceDue, RefundDue: tp.RefundDue,
		Challans: make([]documents.ITR4Challan, 0, len(ps))}
	for _, p := range ps {
		out.Challans = append(out.Challans, documents.ITR4Challan{BSRCode: p.BSRCode, PaidOn: p.PaidOn, Serial: p.ChallanSerial, Amount: p.Amount})
	}
	return out
}
