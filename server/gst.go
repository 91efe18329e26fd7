package server

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

// gstProfile is what the GST figures need from the profile. A user without a
// profile row has no GSTIN and no LUT.
func (s *Server) gstProfile(ctx context.Context, userID string) (store.Profile, error) {
	p, err := s.db.FindProfile(ctx, userID)
	if apperr.Code(err) == apperr.ErrProfileNotFound {
		return store.Profile{UserID: userID}, nil
	}
	return p, err
}

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

// gstTotals sums the user's GST days (invoice date, else IST settlement
// day) over [start, end); income-tax slabs play no part.
func (s *Server) gstTotals(ctx context.Context, userID string, start, end time.Time, lut store.LUTWindow) (store.GSTTotals, error) {
	from, to := istDays(start, end)
	days, err := s.db.GSTDays(ctx, userID, from, to)
	if err != nil {
		return store.GSTTotals{}, err
	}
	return store.SumGSTDays(days, lut), nil
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
	prof, err := s.gstProfile(ctx, c.p.UserID)
	if err != nil {
		return err
	}
	lut := store.LUTWindowOf(prof.LUTNumber, prof.LUTValidUntil)
	t, err := s.gstTotals(ctx, c.p.UserID, fy.Start(), fy.End(), lut)
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
		AsOf:         asOf,
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
	ctx := c.r.Context()
	period := c.r.URL.Query().Get("period")
	if period == "" {
		return fieldError("period", "is required, in the form YYYY-MM")
	}
	start, end, err := india.ParsePeriod(period)
	if err != nil {
		return fieldError("period", "must be a month in the form YYYY-MM, e.g. 2026-04")
	}
	prof, err := s.gstProfile(ctx, c.p.UserID)
	if err != nil {
		return err
	}
	t, err := s.gstTotals(ctx, c.p.UserID, start, end, store.LUTWindowOf(prof.LUTNumber, prof.LUTValidUntil))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, documents.BuildGST3B(documents.GST3BInput{
		Period:           period,
		GSTIN:            prof.GSTIN,
		ZeroRatedTaxable: t.ZeroRated.AmountINR + t.Liable.AmountINR,
		ZeroRatedIGST:    t.Liable.IGST,
		ByInvoiceDate:    t.ByInvoiceDate,
		BySettlementDate: t.BySettlementDate,
		GeneratedAt:      s.db.Now(),
	}))
	return nil
}
