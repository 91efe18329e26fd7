package server

import (
	"encoding/json"
	"net/http"

	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/taxes"
)

type lutView struct {
	Filed      bool    `json:"filed"`
	LUTNumber  string  `json:"lutNumber"`
	ValidUntil *string `json:"validUntil"`
}

type receiptsView struct {
	TransactionCount int64       `json:"transactionCount"`
	TotalINR         json.Number `json:"totalInr"`
}

type liableView struct {
	TransactionCount int64       `json:"transactionCount"`
	TotalINR         json.Number `json:"totalInr"`
	GSTDue           json.Number `json:"gstDue"`
}

type gstSummaryView struct {
	FinancialYear string       `json:"financialYear"`
	LUT           lutView      `json:"lut"`
	ZeroRated     receiptsView `json:"zeroRated"`
	Liable        liableView   `json:"liable"`
	// Domestic receipts count for income tax but are not classified for GST
	// (docs/tax.md); shown so the three groups add up to the year.
	Domestic        receiptsView           `json:"domestic"`
	IGSTRatePercent int64                  `json:"igstRatePercent"`
	TimeOfSupply    documents.TimeOfSupply `json:"timeOfSupply"`
	Unreconciled    unreconciledView       `json:"unreconciled"`
	AsOf            string                 `json:"asOf"`
}

// handleGSTSummary is the year-to-date GST position: cross-border receipts
// whose GST day (invoice date, else IST settlement day) the profile's LUT
// covers are zero-rated, the rest are liable to 18% IGST, charged per
// receipt and rounded half-up to the paisa.
func (s *Server) handleGSTSummary(w http.ResponseWriter, c *call) error {
	ctx := c.r.Context()
	fy, err := s.fyParam(c.r)
	if err != nil {
		return err
	}
	prof, err := taxes.Profile(ctx, s.db, c.p.UserID)
	if err != nil {
		return err
	}
	lut := store.LUTWindowOf(prof.LUTNumber, prof.LUTValidUntil)
	t, err := taxes.GSTTotals(ctx, s.db, c.p.UserID, fy.Start(), fy.End(), lut)
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
	v := gstSummaryView{
		FinancialYear: fy.String(),
		// filed: the LUT on the profile is the one for this year (a LUT
		// covers a single financial year).
		LUT:             lutView{Filed: lut.Until != "" && lut.From == fy.Start().In(india.IST).Format("2006-01-02"), LUTNumber: prof.LUTNumber},
		ZeroRated:       receiptsView{TransactionCount: t.ZeroRated.Count, TotalINR: inr(t.ZeroRated.AmountINR)},
		Liable:          liableView{TransactionCount: t.Liable.Count, TotalINR: inr(t.Liable.AmountINR), GSTDue: inr(t.Liable.IGST)},
		Domestic:        receiptsView{TransactionCount: t.Domestic.Count, TotalINR: inr(t.Domestic.AmountINR)},
		IGSTRatePercent: store.IGSTPercent,
		TimeOfSupply: documents.TimeOfSupply{ByInvoiceDate: t.ByInvoiceDate, BySettlementDate: t.BySettlementDate,
			Rule: india.GSTTimeOfSupplyRule},
		Unreconciled: unrec,
		AsOf:         ts(asOf),
	}
	if prof.LUTValidUntil != "" {
		v.LUT.ValidUntil = &prof.LUTValidUntil
	}
	writeJSON(w, http.StatusOK, v)
	return nil
}

// handleGST3B exports one GST month (IST) of cross-border receipts as
// GSTR-3B Table 3.1(b): exports are zero-rated supplies whether made under
// a LUT (IGST 0) or with IGST paid, so both go in the row, with the IGST of
// those no LUT covered. The GSTIN is the profile's, "" when none is set.
func (s *Server) handleGST3B(w http.ResponseWriter, c *call) error {
	period := c.r.URL.Query().Get("period")
	if period == "" {
		return fieldError("period", "is required, in the form YYYY-MM")
	}
	v, err := taxes.GST3B(c.r.Context(), s.db, c.p.UserID, period)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, v)
	return nil
}
