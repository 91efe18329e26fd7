package server

import (
	"encoding/json"
	"net/http"
	"net/url"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/taxes"
)

// errITR4NotApplicable: ITR-4 is not the return to file (409).
const errITR4NotApplicable = taxes.ErrITR4NotApplicable

type itr4PrefillView struct {
	FinancialYear            string              `json:"financialYear"`
	AssessmentYear           string              `json:"assessmentYear"`
	Section                  string              `json:"section"`
	GrossReceipts            json.Number         `json:"grossReceipts"`
	PresumptiveTaxableIncome json.Number         `json:"presumptiveTaxableIncome"`
	TransactionCount         int64               `json:"transactionCount"`
	EarliestTransaction      *string             `json:"earliestTransaction"`
	LatestTransaction        *string             `json:"latestTransaction"`
	Unreconciled             unreconciledView    `json:"unreconciled"`
	Provisional              bool                `json:"provisional"`
	SlabsFinancialYear       string              `json:"slabsFinancialYear"`
	ExportURL                string              `json:"exportUrl"`
	Notes                    documents.ITR4Notes `json:"notes"`
	AsOf                     string              `json:"asOf"`
}

// itr4Year is the prologue of the prefill and the export (taxes.ITR4).
func (s *Server) itr4Year(c *call) (india.FY, india.Liability, store.TaxTotals, documents.ITR4Input, error) {
	fy, err := s.fyParam(c.r)
	if err != nil {
		return fy, india.Liability{}, store.TaxTotals{}, documents.ITR4Input{}, err
	}
	l, t, in, err := taxes.ITR4(c.r.Context(), s.db, c.p.UserID, fy)
	return fy, l, t, in, err
}

// handleITR4Prefill summarises the year's 44ADA figures, with the notes on
// what the file leaves for the filer, and links the ITR-4 JSON file.
// Transactions are the reconciled receipts settled in the year (IST);
// earliest and latest are their settlement times, null when none.
func (s *Server) handleITR4Prefill(w http.ResponseWriter, c *call) error {
	ctx := c.r.Context()
	fy, l, t, in, err := s.itr4Year(c)
	if err != nil {
		return err
	}
	notes, err := documents.BuildITR4Notes(in)
	if err != nil {
		return err
	}
	u, err := s.db.UnreconciledReceipts(ctx, c.p.UserID, fy.Start(), fy.End())
	if err != nil {
		return err
	}
	unrec := viewUnreconciled(u)
	asOf, err := taxes.AsOf(ctx, s.db, c.p.UserID)
	if err != nil {
		return err
	}
	if unrec.TransactionCount > 0 {
		notes.Warnings = append(notes.Warnings, unrec.Message)
	}
	v := itr4PrefillView{
		FinancialYear: fy.String(), AssessmentYear: fy.AssessmentYear(), Section: "44ADA",
		GrossReceipts: inr(l.GrossReceipts), PresumptiveTaxableIncome: inr(l.PresumptiveIncome),
		TransactionCount: t.All.Count, Unreconciled: unrec, Provisional: l.Provisional,
		SlabsFinancialYear: l.TableFY.String(), ExportURL: s.itr4ExportURL(fy), Notes: notes, AsOf: ts(asOf),
	}
	if t.First != nil {
		first, last := ts(*t.First), ts(*t.Last)
		v.EarliestTransaction, v.LatestTransaction = &first, &last
	}
	writeJSON(w, http.StatusOK, v)
	return nil
}

func (s *Server) itr4ExportURL(fy india.FY) string {
	return s.cfg.BaseURL + "/api/v1/compliance/itr4/prefill/export?" + url.Values{"fy": {fy.String()}}.Encode()
}

// handleITR4Export serves documents.BuildITR4 as a file, for both
// /compliance/itr4/prefill/export (the prefill's exportUrl) and
// /tax/exports/itr4. ITR-4 prefill exports belong to tax:read
// while the prefill that links the export is compliance:read, so the export
// accepts either scope: the exportUrl works with the key that received it.
// The file is the return alone; the Link header points at the prefill,
// which carries payoutd's notes on it.
func (s *Server) handleITR4Export(w http.ResponseWriter, c *call) error {
	if !c.p.has("compliance:read") && !c.p.has("tax:read") {
		return apperr.Errorf(apperr.ErrInsufficientScope, "this operation needs scope tax:read or compliance:read")
	}
	fy, _, _, in, err := s.itr4Year(c)
	if err != nil {
		return err
	}
	body, err := documents.BuildITR4(in)
	if err != nil {
		return err
	}
	prefill := s.cfg.BaseURL + "/api/v1/compliance/itr4/prefill?" + url.Values{"fy": {fy.String()}}.Encode()
	w.Header().Set("Link", "<"+prefill+`>; rel="describedby"`)
	w.Header().Set("Content-Disposition", `attachment; filename="ITR4-`+fy.AssessmentYear()+`.json"`)
	writeRaw(w, http.StatusOK, body)
	return nil
}
