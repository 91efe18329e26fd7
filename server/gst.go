package server

import (
	"encoding/json"
	"net/http"

	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/taxes"
)

// lutView is the LUT of the requested year: a recorded one (arn,
// furnishedOn) or the profile's older lutNumber and lutValidUntil; without
// one lutNumber and validUntil are the profile's values.
type lutView struct {
	Filed       bool    `json:"filed"`
	LUTNumber   string  `json:"lutNumber"`
	ValidUntil  *string `json:"validUntil"`
	FurnishedOn *string `json:"furnishedOn"`
}

// exPostFactoView is the part of zeroRated a LUT covers although the
// exports were made before it was furnished in their year.
type exPostFactoView struct {
	TransactionCount int64       `json:"transactionCount"`
	TotalINR         json.Number `json:"totalInr"`
	TotalINRPaise    int64       `json:"totalInrPaise"`
	Label            string      `json:"label"`
}

type receiptsView struct {
	TransactionCount int64       `json:"transactionCount"`
	TotalINR         json.Number `json:"totalInr"`
	TotalINRPaise    int64       `json:"totalInrPaise"`
}

func viewReceipts(count, paise int64) receiptsView {
	return receiptsView{TransactionCount: count, TotalINR: inr(paise), TotalINRPaise: paise}
}

type liableView struct {
	TransactionCount int64       `json:"transactionCount"`
	TotalINR         json.Number `json:"totalInr"`
	TotalINRPaise    int64       `json:"totalInrPaise"`
	GSTDue           json.Number `json:"gstDue"`
	GSTDuePaise      int64       `json:"gstDuePaise"`
}

type gstSummaryView struct {
	FinancialYear string       `json:"financialYear"`
	LUT           lutView      `json:"lut"`
	ZeroRated     receiptsView `json:"zeroRated"`
	// ZeroRatedExPostFacto is the part of ZeroRated made before the year's
	// LUT was furnished (Circular 37/11/2018-GST, para 4.1).
	ZeroRatedExPostFacto exPostFactoView `json:"zeroRatedExPostFacto"`
	Liable               liableView      `json:"liable"`
	// Domestic receipts count for income tax but are not classified for GST
	// (docs/tax.md); shown so the groups add up to the year.
	Domestic receiptsView `json:"domestic"`
	// NotRegistered are exports made before the supplier became liable to
	// register or was registered (registration.liableFrom): no GST.
	NotRegistered   receiptsView              `json:"notRegistered"`
	IGSTRatePercent int64                     `json:"igstRatePercent"`
	TimeOfSupply    documents.TimeOfSupply    `json:"timeOfSupply"`
	Registration    documents.GSTRegistration `json:"registration"`
	Rates           []documents.GSTRate       `json:"rates"`
	// RealisationDue lists the LUT invoices rule 96A is watching today.
	RealisationDue []realisationItem `json:"realisationDue"`
	Warnings       []string          `json:"warnings,omitempty"`
	Unreconciled   unreconciledView  `json:"unreconciled"`
	AsOf           string            `json:"asOf"`
}

// handleGSTSummary is the year-to-date GST position at GST values (the
// invoice value at the rate of the time of supply): exports a LUT covers
// are zero-rated, the rest liable to 18% IGST per receipt, half-up to the
// paisa; a supplier without a GSTIN owes none within the registration
// threshold (taxes.GSTOf, india.SplitReceipts).
func (s *Server) handleGSTSummary(w http.ResponseWriter, c *call) error {
	fy, err := s.fyParam(c.r)
	if err != nil {
		return err
	}
	g, err := taxes.GSTOf(c.r.Context(), s.db, c.p.UserID, fy.Start(), fy.End())
	if err != nil {
		return err
	}
	t := g.Split
	v := gstSummaryView{
		FinancialYear: fy.String(),
		LUT:           viewLUT(g),
		ZeroRated:     viewReceipts(t.ZeroRated.Count, t.ZeroRated.AmountINR),
		ZeroRatedExPostFacto: exPostFactoView{TransactionCount: t.ExPostFacto.Count, TotalINR: inr(t.ExPostFacto.AmountINR),
			TotalINRPaise: t.ExPostFacto.AmountINR, Label: india.ExPostFacto},
		Liable: liableView{TransactionCount: t.Liable.Count, TotalINR: inr(t.Liable.AmountINR), TotalINRPaise: t.Liable.AmountINR,
			GSTDue: inr(t.Liable.IGST), GSTDuePaise: t.Liable.IGST},
		Domestic:        viewReceipts(t.Domestic.Count, t.Domestic.AmountINR),
		NotRegistered:   viewReceipts(t.Unregistered.Count, t.Unregistered.AmountINR),
		IGSTRatePercent: india.IGSTPercent,
		TimeOfSupply: documents.TimeOfSupply{ByInvoiceDate: t.ByInvoiceDate, BySettlementDate: t.BySettlementDate,
			Rule: india.GSTTimeOfSupplyRule},
		Registration: taxes.RegistrationView(g.Registration),
		Rates:        taxes.RatesView(g.Rates),
		Unreconciled: viewUnreconciled(g.Unreconciled),
		AsOf:         ts(g.AsOf),
	}
	if r := g.Registration; r.RegisterBy != "" && !r.Registered {
		v.Warnings = append(v.Warnings, r.Message)
	}
	if g.Unreconciled.Count > 0 {
		v.Warnings = append(v.Warnings, v.Unreconciled.Message)
	}
	due, err := taxes.RealisationDue(c.r.Context(), s.db, c.p.UserID)
	if err != nil {
		return err
	}
	v.RealisationDue = []realisationItem{}
	for _, d := range due {
		item := realisationItem{InvoiceID: d.Invoice.ID, Number: d.Invoice.Number, Date: d.Invoice.Date,
			Realisation: viewRealisation(d)}
		v.RealisationDue = append(v.RealisationDue, item)
		v.Warnings = append(v.Warnings, item.Realisation.Message)
	}
	writeJSON(w, http.StatusOK, v)
	return nil
}

// realisationItem is one LUT invoice rule 96A is watching.
type realisationItem struct {
	InvoiceID   string           `json:"invoiceId"`
	Number      string           `json:"number"`
	Date        string           `json:"date"`
	Realisation *realisationView `json:"realisation"`
}

func viewLUT(g taxes.GST) lutView {
	l := g.LUT
	if l.Until == "" {
		v := lutView{LUTNumber: g.Profile.LUTNumber}
		if g.Profile.LUTValidUntil != "" {
			v.ValidUntil = &g.Profile.LUTValidUntil
		}
		return v
	}
	v := lutView{Filed: true, LUTNumber: l.ARN, ValidUntil: &l.Until}
	if l.FurnishedOn != "" {
		v.FurnishedOn = &l.FurnishedOn
	}
	return v
}

// handleGST3B exports one GST month (IST) as GSTR-3B Table 3.1
// (taxes.GST3B, which the console downloads too).
func (s *Server) handleGST3B(w http.ResponseWriter, c *call) error {
	period := c.r.URL.Query().Get("period")
	if period == "" {
		return fieldError("period", "is required, in the form YYYY-MM")
	}
	b, err := taxes.GST3B(c.r.Context(), s.db, c.p.UserID, period)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, b)
	return nil
}
