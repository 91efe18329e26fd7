package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

// errITR4NotApplicable: the year's receipts are above the s.44ADA limit, so
// ITR-4 is not the return to file (409; the message says why and what
// applies instead).
const errITR4NotApplicable = "ERR_ITR4_NOT_APPLICABLE"

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

// itr4Year is the prologue of the prefill and the export: the year's
// liability, refused with 409 when ITR-4 is not the right return, and the
// input both documents are built from.
func (s *Server) itr4Year(c *call) (india.FY, india.Liability, store.TaxTotals, documents.ITR4Input, error) {
	fy, l, t, err := s.requestedYear(c)
	if err != nil {
		return fy, l, t, documents.ITR4Input{}, err
	}
	if !l.Presumptive {
		return fy, l, t, documents.ITR4Input{}, &apperr.Error{Code: errITR4NotApplicable, Message: l.PresumptiveUnavailable()}
	}
	in, err := s.itr4Input(c.r.Context(), c.p.UserID, fy, l, t)
	return fy, l, t, in, err
}

// itr4Input carries the liability's figures into the return unchanged, so
// the file agrees with GET /tax/liability to the rupee.
func (s *Server) itr4Input(ctx context.Context, userID string, fy india.FY, l india.Liability, t store.TaxTotals) (documents.ITR4Input, error) {
	prof, err := s.gstProfile(ctx, userID)
	if err != nil {
		return documents.ITR4Input{}, err
	}
	tp, challans, err := s.yearTaxPaid(ctx, userID, l)
	if err != nil {
		return documents.ITR4Input{}, err
	}
	return documents.ITR4Input{
		FY: fy.String(), Name: prof.Name, PAN: prof.PAN, Email: prof.Email, Phone: prof.Phone,
		GrossReceipts: l.GrossReceipts, PresumptiveIncome: l.PresumptiveIncome, TaxableIncome: l.TaxableIncome,
		TaxOnIncome: l.TaxOnIncome, Rebate87A: l.Rebate87A, Surcharge: l.Surcharge, Cess: l.Cess, TaxDue: l.EstimatedTaxDue,
		TransactionCount: int(t.All.Count), GeneratedAt: s.db.Now(), Provisional: l.ProvisionalNote(),
		TaxesPaid: itr4TaxesPaid(tp, challans),
	}, nil
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
	unrec, err := s.unreconciled(ctx, c.p.UserID, fy)
	if err != nil {
		return err
	}
	asOf, err := s.asOf(ctx, c.p.UserID)
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
		SlabsFinancialYear: l.TableFY.String(), ExportURL: s.itr4ExportURL(fy), Notes: notes, AsOf: asOf,
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
