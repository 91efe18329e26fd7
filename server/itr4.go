package server

import (
	"encoding/json"
	"github.com/payoutd/payoutd/apperr"
	"net/http"
	"net/url"

	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/taxes"
)

type itr4PrefillView struct {
	FinancialYear                 string              `json:"financialYear"`
	AssessmentYear                string              `json:"assessmentYear"`
	Section                       string              `json:"section"`
	GrossReceipts                 json.Number         `json:"grossReceipts"`
	GrossReceiptsPaise            int64               `json:"grossReceiptsPaise"`
	PresumptiveTaxableIncome      json.Number         `json:"presumptiveTaxableIncome"`
	PresumptiveTaxableIncomePaise int64               `json:"presumptiveTaxableIncomePaise"`
	TransactionCount              int64               `json:"transactionCount"`
	EarliestTransaction           *string             `json:"earliestTransaction"`
	LatestTransaction             *string             `json:"latestTransaction"`
	Unreconciled                  unreconciledView    `json:"unreconciled"`
	Provisional                   bool                `json:"provisional"`
	SlabsFinancialYear            string              `json:"slabsFinancialYear"`
	ExportURL                     string              `json:"exportUrl"`
	Notes                         documents.ITR4Notes `json:"notes"`
	Act                           actView             `json:"act"`
	AsOf                          string              `json:"asOf"`
}

// itr4Year is the prologue of the prefill and the export: the year's
// figures, refused with 409 when ITR-4 is not the right return.
func (s *Server) itr4Year(c *call) (taxes.ITR4, error) {
	fy, payOn, err := s.requestedYear(c)
	if err != nil {
		return taxes.ITR4{}, err
	}
	return taxes.ITR4Of(c.r.Context(), s.db, c.p.UserID, fy, payOn)
}

// handleITR4Prefill summarises the year's presumptive figures, with the
// notes on what the file leaves for the filer and the schema it follows,
// and links the ITR-4 JSON file. Transactions are the reconciled receipts
// settled in the year (IST); earliest and latest are their settlement
// times, null when none.
func (s *Server) handleITR4Prefill(w http.ResponseWriter, c *call) error {
	y, err := s.itr4Year(c)
	if err != nil {
		return err
	}
	notes, err := documents.BuildITR4Notes(y.Input)
	if err != nil {
		return err
	}
	in, l := y.Year, y.Year.Liability
	if in.Unreconciled.Count > 0 {
		notes.Warnings = append(notes.Warnings, taxes.UnreconciledMessage(in.Unreconciled))
	}
	v := itr4PrefillView{
		FinancialYear: in.FY.String(), AssessmentYear: in.FY.AssessmentYear(), Section: "44ADA",
		GrossReceipts: inr(l.GrossReceipts), GrossReceiptsPaise: l.GrossReceipts,
		PresumptiveTaxableIncome: inr(l.PresumptiveIncome), PresumptiveTaxableIncomePaise: l.PresumptiveIncome,
		TransactionCount: in.Totals.All.Count, Unreconciled: viewUnreconciled(in.Unreconciled), Provisional: l.Provisional,
		SlabsFinancialYear: l.TableFY.String(), ExportURL: s.itr4ExportURL(in.FY), Notes: notes,
		Act: actView{Name: in.Act.Name, YearTerm: in.Act.Year}, AsOf: ts(in.AsOf),
	}
	if in.First != nil {
		first, last := ts(*in.First), ts(*in.Last)
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
	y, err := s.itr4Year(c)
	if err != nil {
		return err
	}
	body, err := documents.BuildITR4(y.Input)
	if err != nil {
		return err
	}
	fy := y.Year.FY
	prefill := s.cfg.BaseURL + "/api/v1/compliance/itr4/prefill?" + url.Values{"fy": {fy.String()}}.Encode()
	w.Header().Set("Link", "<"+prefill+`>; rel="describedby"`)
	schema := documents.ITR4SchemaFor(fy)
	w.Header().Set("ITR4-Schema", schemaHeader(schema))
	w.Header().Set("Content-Disposition", `attachment; filename="ITR4-`+fy.AssessmentYear()+`.json"`)
	writeRaw(w, http.StatusOK, body)
	return nil
}

// schemaHeader names the published schema the file follows, and says when
// it is provisional: "ITR-4_2026_Main_V1.1.json; provisional".
func schemaHeader(s documents.ITR4Schema) string {
	if s.Provisional {
		return s.File + "; provisional"
	}
	return s.File
}
