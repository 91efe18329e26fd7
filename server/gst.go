package server

import (
	"encoding/json"
	"net/http"

	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/figures"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/money"
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
	// (docs/tax.md); shown so the groups add up to the year.
	Domestic receiptsView `json:"domestic"`
	// NotRegistered are exports of a supplier without a GSTIN made while the
	// year's turnover was within the registration threshold: no GST.
	NotRegistered   receiptsView              `json:"notRegistered"`
	IGSTRatePercent int64                     `json:"igstRatePercent"`
	TimeOfSupply    documents.TimeOfSupply    `json:"timeOfSupply"`
	Registration    documents.GSTRegistration `json:"registration"`
	Rates           []documents.GSTRate       `json:"rates"`
	Warnings        []string                  `json:"warnings,omitempty"`
	Unreconciled    unreconciledView          `json:"unreconciled"`
	AsOf            string                    `json:"asOf"`
}

// handleGSTSummary is the year-to-date GST position at GST values (the
// invoice value at the rate of the time of supply): exports a LUT covers
// are zero-rated, the rest liable to 18% IGST per receipt, half-up to the
// paisa; a supplier without a GSTIN owes none within the registration
// threshold (figures.GSTOf, india.SplitReceipts).
func (s *Server) handleGSTSummary(w http.ResponseWriter, c *call) error {
	fy, err := s.fyParam(c.r)
	if err != nil {
		return err
	}
	g, err := figures.GSTOf(c.r.Context(), s.db, c.p.UserID, fy.Start(), fy.End())
	if err != nil {
		return err
	}
	t := g.Split
	v := gstSummaryView{
		FinancialYear:   fy.String(),
		LUT:             lutView{Filed: g.LUT.FiledFor(fy), LUTNumber: g.Profile.LUTNumber},
		ZeroRated:       receiptsView{TransactionCount: t.ZeroRated.Count, TotalINR: inr(t.ZeroRated.AmountINR)},
		Liable:          liableView{TransactionCount: t.Liable.Count, TotalINR: inr(t.Liable.AmountINR), GSTDue: inr(t.Liable.IGST)},
		Domestic:        receiptsView{TransactionCount: t.Domestic.Count, TotalINR: inr(t.Domestic.AmountINR)},
		NotRegistered:   receiptsView{TransactionCount: t.Unregistered.Count, TotalINR: inr(t.Unregistered.AmountINR)},
		IGSTRatePercent: india.IGSTPercent,
		TimeOfSupply: documents.TimeOfSupply{ByInvoiceDate: t.ByInvoiceDate, BySettlementDate: t.BySettlementDate,
			Rule: india.GSTTimeOfSupplyRule},
		Registration: viewRegistration(g.Registration),
		Rates:        viewRates(g.Rates),
		Unreconciled: viewUnreconciled(g.Unreconciled),
		AsOf:         ts(g.AsOf),
	}
	if g.Profile.LUTValidUntil != "" {
		v.LUT.ValidUntil = &g.Profile.LUTValidUntil
	}
	if r := g.Registration; r.RegisterBy != "" && !r.Registered {
		v.Warnings = append(v.Warnings, r.Message)
	}
	if g.Unreconciled.Count > 0 {
		v.Warnings = append(v.Warnings, v.Unreconciled.Message)
	}
	writeJSON(w, http.StatusOK, v)
	return nil
}

// handleGST3B exports one GST month (IST) of cross-border receipts as
// GSTR-3B Table 3.1(b): exports are zero-rated supplies whether made under
// a LUT (IGST 0) or with IGST paid, so both go in the row, with the IGST of
// those no LUT covered. Without a GSTIN the export says the user is not
// registered and shows no tax to pay.
func (s *Server) handleGST3B(w http.ResponseWriter, c *call) error {
	period := c.r.URL.Query().Get("period")
	if period == "" {
		return fieldError("period", "is required, in the form YYYY-MM")
	}
	start, end, err := india.ParsePeriod(period)
	if err != nil {
		return fieldError("period", "must be a month in the form YYYY-MM, e.g. 2026-04")
	}
	g, err := figures.GSTOf(c.r.Context(), s.db, c.p.UserID, start, end)
	if err != nil {
		return err
	}
	t := g.Split
	reg := viewRegistration(g.Registration)
	if !reg.Registered {
		reg.Message = "Not registered for GST (no GSTIN on the profile): a GSTR-3B is filed only once registered, so this export " +
			"shows the month's exports for review and no tax to pay. " + reg.Message
	}
	writeJSON(w, http.StatusOK, documents.BuildGST3B(documents.GST3BInput{
		Period:           period,
		GSTIN:            g.Profile.GSTIN,
		ZeroRatedTaxable: t.ZeroRated.AmountINR + t.Liable.AmountINR + t.Unregistered.AmountINR,
		ZeroRatedIGST:    t.Liable.IGST,
		ByInvoiceDate:    t.ByInvoiceDate,
		BySettlementDate: t.BySettlementDate,
		GeneratedAt:      s.db.Now(),
		Registration:     reg,
		Rates:            viewRates(g.Rates),
	}))
	return nil
}

func viewRegistration(r *india.Registration) documents.GSTRegistration {
	v := documents.GSTRegistration{Registered: r.Registered, SpecialCategory: r.SpecialCategory, Threshold: documents.INR(r.Threshold),
		Turnover: documents.INR(r.Turnover), OwesGST: r.OwesGST, Message: r.Message}
	if r.CrossedOn != "" {
		v.CrossedOn, v.RegisterBy = &r.CrossedOn, &r.RegisterBy
	}
	return v
}

func viewRates(rs []figures.RateUsed) []documents.GSTRate {
	out := make([]documents.GSTRate, 0, len(rs))
	for _, r := range rs {
		cur, _ := money.Lookup(r.Currency)
		out = append(out, documents.GSTRate{Currency: r.Currency, Rate: json.Number(r.Rate), RateDate: r.RateDate,
			TimeOfSupplyFrom: r.SupplyFrom, TimeOfSupplyTo: r.SupplyTo, Receipts: r.Count,
			InvoiceValue: json.Number(money.Format(r.InvoiceAmount, cur)), TaxableValue: documents.INR(r.ValueINR), Basis: rateBasis(r)})
	}
	return out
}

// rateBasis names how a rate relates to the times of supply it valued.
func rateBasis(r figures.RateUsed) string {
	switch {
	case r.Later():
		return "settlementRate"
	case r.Earlier():
		return "latestEarlier"
	}
	return "timeOfSupply"
}
