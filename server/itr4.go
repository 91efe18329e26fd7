package server

import (
	"encoding/json"
	"net/http"
	"net/url"

	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/store"
)

type itr4PrefillView struct {
	FinancialYear            string      `json:"financialYear"`
	AssessmentYear           string      `json:"assessmentYear"`
	Section                  string      `json:"section"`
	GrossReceipts            json.Number `json:"grossReceipts"`
	PresumptiveTaxableIncome json.Number `json:"presumptiveTaxableIncome"`
	TransactionCount         int64       `json:"transactionCount"`
	EarliestTransaction      *string     `json:"earliestTransaction"`
	LatestTransaction        *string     `json:"latestTransaction"`
	ExportURL                string      `json:"exportUrl"`
	AsOf                     string      `json:"asOf"`
}

// handleITR4Prefill summarises the year's 44ADA figures and links the ITR-4
// JSON file. Transactions are the reconciled receipts settled in the year
// (IST); earliest and latest are their settlement times, null when none.
func (s *Server) handleITR4Prefill(w http.ResponseWriter, c *call) error {
	ctx := c.r.Context()
	fy, l, t, err := s.requestedYear(c)
	if err != nil {
		return err
	}
	asOf, err := s.asOf(ctx, c.p.UserID)
	if err != nil {
		return err
	}
	v := itr4PrefillView{
		FinancialYear: fy.String(), AssessmentYear: fy.AssessmentYear(), Section: "44ADA",
		GrossReceipts: inr(l.GrossReceipts), PresumptiveTaxableIncome: inr(l.PresumptiveIncome),
		TransactionCount: t.All.Count,
		ExportURL:        s.cfg.BaseURL + "/api/v1/compliance/itr4/prefill/export?" + url.Values{"fy": {fy.String()}}.Encode(),
		AsOf:             asOf,
	}
	if t.First != nil {
		first, last := ts(*t.First), ts(*t.Last)
		v.EarliestTransaction, v.LatestTransaction = &first, &last
	}
	writeJSON(w, http.StatusOK, v)
	return nil
}

// handleITR4Export serves documents.BuildITR4 as a file, for both
// /compliance/itr4/prefill/export (the prefill's exportUrl) and
// /tax/exports/itr4. SPEC.md §5 gives "ITR-4 prefill exports" to tax:read
// while the prefill that links the export is compliance:read, so the export
// accepts either scope: the exportUrl works with the key that received it.
func (s *Server) handleITR4Export(w http.ResponseWriter, c *call) error {
	if !c.p.has("compliance:read") && !c.p.has("tax:read") {
		return store.Errorf(store.ErrInsufficientScope, "this operation needs scope tax:read or compliance:read")
	}
	ctx := c.r.Context()
	fy, l, t, err := s.requestedYear(c)
	if err != nil {
		return err
	}
	prof, err := s.gstProfile(ctx, c.p.UserID)
	if err != nil {
		return err
	}
	tp, challans, err := s.yearTaxPaid(ctx, c.p.UserID, l)
	if err != nil {
		return err
	}
	body, err := documents.BuildITR4(documents.ITR4Input{
		FY: fy.String(), Name: prof.Name, PAN: prof.PAN, Email: prof.Email, Phone: prof.Phone,
		GrossReceipts: l.GrossReceipts, PresumptiveIncome: l.PresumptiveIncome, TaxableIncome: l.TaxableIncome,
		TaxOnIncome: l.TaxOnIncome, Rebate87A: l.Rebate87A, Surcharge: l.Surcharge, Cess: l.Cess, TaxDue: l.EstimatedTaxDue,
		TransactionCount: int(t.All.Count), GeneratedAt: s.db.Now(),
		TaxesPaid: itr4TaxesPaid(tp, challans),
	})
	if err != nil {
		return err
	}
	w.Header().Set("Content-Disposition", `attachment; filename="ITR4-`+fy.AssessmentYear()+`.json"`)
	writeRaw(w, http.StatusOK, body)
	return nil
}
