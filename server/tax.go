package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

// liabilityNote is SPEC.md §1's label for the liability figure.
const liabilityNote = "Indicative only: computed from this service's reconciled transaction data under s.44ADA " +
	"(new regime, resident individual). It ignores other income, deductions, HRA and TDS; taxes paid are the challans recorded with POST /tax/payments."

func inr(paise int64) json.Number { return amountJSON(paise, "INR") }

// fyParam reads ?fy=YYYY-YY, defaulting to the current financial year in
// IST. Malformed text and years without a tax table are both 400 naming fy,
// so every tax endpoint refuses the same inputs the same way.
func (s *Server) fyParam(r *http.Request) (india.FY, error) {
	v := r.URL.Query().Get("fy")
	fy := india.FYOf(s.db.Now())
	if v != "" {
		var err error
		if fy, err = india.ParseFY(v); err != nil {
			return fy, fieldError("fy", "must be a financial year in the form YYYY-YY, e.g. 2025-26")
		}
	}
	if _, err := india.RulesFor(fy); errors.Is(err, india.ErrUnsupportedFY) {
		return fy, fieldError("fy", "financial year "+fy.String()+" is not supported: "+supportedFYs())
	} else if err != nil {
		return fy, err
	}
	return fy, nil
}

// supportedFYs names the years with a tax table, for the error message.
func supportedFYs() string {
	first, last := "", ""
	for y := 2000; y < 2100; y++ {
		if _, err := india.RulesFor(india.FY{StartYear: y}); err == nil {
			if first == "" {
				first = india.FY{StartYear: y}.String()
			}
			last = india.FY{StartYear: y}.String()
		}
	}
	return "supported years are " + first + " to " + last
}

// istDays turns the half-open instant range [start, end) into the IST days
// it spans, both inclusive, the keys of the tax aggregates.
func istDays(start, end time.Time) (string, string) {
	return start.In(india.IST).Format(time.DateOnly), end.Add(-time.Millisecond).In(india.IST).Format(time.DateOnly)
}

// taxTotals sums the user's maintained aggregates over [start, end).
func (s *Server) taxTotals(ctx context.Context, userID string, start, end time.Time, lut store.LUTWindow) (store.TaxTotals, error) {
	from, to := istDays(start, end)
	days, err := s.db.TaxDays(ctx, userID, from, to)
	if err != nil {
		return store.TaxTotals{}, err
	}
	return store.SumTaxDays(days, lut), nil
}

// asOf is when the figures were last recomputed; before the first
// reconciliation there is nothing to recompute, so it is now.
func (s *Server) asOf(ctx context.Context, userID string) (string, error) {
	at, ok, err := s.db.TaxRefreshedAt(ctx, userID)
	if err != nil || !ok {
		return ts(s.db.Now()), err
	}
	return ts(at), nil
}

type instalmentView struct {
	DueDate    string      `json:"dueDate"`
	PercentDue int64       `json:"percentDue"`
	Amount     json.Number `json:"amount"`
	Paid       bool        `json:"paid"`
	PaidByDate json.Number `json:"paidByDate"` // advance tax paid on or before dueDate
	Shortfall  json.Number `json:"shortfall"`  // amount − paidByDate, never negative
}

type computationView struct {
	TaxOnIncome json.Number `json:"taxOnIncome"`
	Rebate87A   json.Number `json:"rebate87A"`
	Surcharge   json.Number `json:"surcharge"`
	Cess        json.Number `json:"cess"`
}

type liabilityView struct {
	FinancialYear      string           `json:"financialYear"`
	Regime             string           `json:"regime"`
	GrossReceipts      json.Number      `json:"grossReceipts"`
	PresumptiveIncome  json.Number      `json:"presumptiveIncome"`
	TaxableIncome      json.Number      `json:"taxableIncome"`
	EstimatedTaxDue    json.Number      `json:"estimatedTaxDue"`
	AdvanceTaxSchedule []instalmentView `json:"advanceTaxSchedule"`
	Computation        computationView  `json:"computation"`
	TransactionCount   int64            `json:"transactionCount"`
	Indicative         bool             `json:"indicative"`
	Note               string           `json:"note"`
	Warnings           []string         `json:"warnings,omitempty"`
	TaxPaid            *taxPaidView     `json:"taxPaid"`
	BalanceDue         json.Number      `json:"balanceDue"`
	RefundDue          json.Number      `json:"refundDue"`
	AsOf               string           `json:"asOf"`
}

// yearLiability computes the indicative 44ADA liability of a financial year
// from the user's reconciled receipts.
// requestedYear is the ?fy= year of the request (default current) with its
// liability and totals: the prologue of every figure endpoint.
func (s *Server) requestedYear(c *call) (india.FY, india.Liability, store.TaxTotals, error) {
	fy, err := s.fyParam(c.r)
	if err != nil {
		return fy, india.Liability{}, store.TaxTotals{}, err
	}
	l, t, err := s.yearLiability(c.r.Context(), c.p.UserID, fy)
	return fy, l, t, err
}

func (s *Server) yearLiability(ctx context.Context, userID string, fy india.FY) (india.Liability, store.TaxTotals, error) {
	t, err := s.taxTotals(ctx, userID, fy.Start(), fy.End(), store.LUTWindow{})
	if err != nil {
		return india.Liability{}, t, err
	}
	l, err := india.ComputeLiability(fy, t.All.AmountINR)
	return l, t, err
}

func (s *Server) handleTaxLiability(w http.ResponseWriter, c *call) error {
	ctx := c.r.Context()
	fy, l, t, err := s.requestedYear(c)
	if err != nil {
		return err
	}
	asOf, err := s.asOf(ctx, c.p.UserID)
	if err != nil {
		return err
	}
	v := liabilityView{
		FinancialYear: fy.String(), Regime: "44ADA", GrossReceipts: inr(l.GrossReceipts),
		PresumptiveIncome: inr(l.PresumptiveIncome), TaxableIncome: inr(l.TaxableIncome), EstimatedTaxDue: inr(l.EstimatedTaxDue),
		AdvanceTaxSchedule: []instalmentView{},
		Computation: computationView{TaxOnIncome: inr(l.TaxOnIncome), Rebate87A: inr(l.Rebate87A),
			Surcharge: inr(l.Surcharge), Cess: inr(l.Cess)},
		TransactionCount: t.All.Count, Indicative: true, Note: liabilityNote, AsOf: asOf,
	}
	for _, in := range l.AdvanceTaxSchedule {
		v.AdvanceTaxSchedule = append(v.AdvanceTaxSchedule, instalmentView{DueDate: in.DueDate, PercentDue: in.PercentDue, Amount: inr(in.Amount)})
	}
	tp, challans, err := s.yearTaxPaid(ctx, c.p.UserID, l)
	if err != nil {
		return err
	}
	attachTaxPaid(&v, tp, len(challans))
	if rules, err := india.RulesFor(fy); err == nil && l.GrossReceipts > rules.PresumptiveReceiptsLimitLowCash {
		// Every receipt here came through a bank, so the higher (low-cash)
		// limit is the one that applies.
		v.Warnings = append(v.Warnings, "Gross receipts exceed ₹"+documents.FormatINR(rules.PresumptiveReceiptsLimitLowCash)+
			", the s.44ADA limit when cash receipts are at most 5%: presumptive taxation is not available and books must be kept.")
	}
	writeJSON(w, http.StatusOK, v)
	return nil
}
