package server

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

type firaView struct {
	ID                 string      `json:"id"`
	PaymentID          string      `json:"paymentId"`
	Status             string      `json:"status"`
	RemittingBank      string      `json:"remittingBank"`
	RemittingCountry   string      `json:"remittingCountry"`
	AmountForeign      json.Number `json:"amountForeign"`
	AmountForeignMinor int64       `json:"amountForeignMinor"`
	ForeignCurrency    string      `json:"foreignCurrency"`
	AmountINR          json.Number `json:"amountInr"`
	AmountINRPaise     int64       `json:"amountInrPaise"`
	SettlementRate     json.Number `json:"settlementRate"`
	PurposeCode        string      `json:"purposeCode"`
	PurposeDescription string      `json:"purposeDescription"`
	InvoiceRef         string      `json:"invoiceRef"`
	SettlementRef      string      `json:"settlementRef"`
	SettledAt          string      `json:"settledAt"`
	// SettlementDate is the Indian (IST) date of SettledAt, the date that
	// decides the financial year and, without an invoice date, the GST month.
	SettlementDate string `json:"settlementDate"`
	RateAsOf       string `json:"rateAsOf"`
	// InvoiceDate is the payment's invoice date (null when none), the date
	// that decides the GST month; GST is the receipt's GST value.
	InvoiceDate *string         `json:"invoiceDate"`
	GST         *firaGSTView    `json:"gst"`
	Remitter    firaRemitter    `json:"remitter"`
	Beneficiary firaBeneficiary `json:"beneficiary"`
	// Network is the Stellar transaction a live payout settled with.
	Network *networkTxView `json:"network,omitempty"`
	// Deposits are the inward transfers the payout pays out.
	Deposits    []firaDepositView `json:"deposits"`
	Issuer      string            `json:"issuer"`
	GeneratedAt string            `json:"generatedAt"`
	DownloadURL string            `json:"downloadUrl"`
}

// firaDepositView is an inward transfer a FIRA cites: the deposit as
// GET /deposits/{id} shows it, and how the payout was tied to it.
type firaDepositView struct {
	depositView
	MatchedBy string `json:"matchedBy"`
}

func viewFIRADeposits(list []store.LinkedDeposit) []firaDepositView {
	out := make([]firaDepositView, 0, len(list))
	for _, d := range list {
		out = append(out, firaDepositView{depositView: viewDeposit(d.Movement), MatchedBy: d.MatchedBy})
	}
	return out
}

// firaRemitter is who sent the money, as the payout named them.
type firaRemitter struct {
	Name        string `json:"name"`
	Country     string `json:"country"`
	CountryName string `json:"countryName"`
	Bank        string `json:"bank"`
}

// firaBeneficiary is the user as the profile stood when the advice was
// generated, with where the money was received.
type firaBeneficiary struct {
	Name          string `json:"name"`
	PAN           string `json:"pan"`
	Address       string `json:"address"`
	Email         string `json:"email"`
	VaultID       string `json:"vaultId"`
	WalletAddress string `json:"walletAddress"`
}

// firaGSTView is the receipt's GST value: the invoice value at the INR rate
// of its time of supply (invoice date, else settlement date), with that
// rate and its date. Null for an advice of a payout settled before GST
// values were kept.
type firaGSTView struct {
	TimeOfSupply      string      `json:"timeOfSupply"`
	TimeOfSupplyBasis string      `json:"timeOfSupplyBasis"` // invoiceDate or settlementDate
	InvoiceValue      json.Number `json:"invoiceValue"`
	InvoiceValueMinor int64       `json:"invoiceValueMinor"`
	Rate              json.Number `json:"rate"`
	RateDate          string      `json:"rateDate"`
	RateBasis         string      `json:"rateBasis"` // as a GST summary rate's basis
	TaxableValue      json.Number `json:"taxableValue"`
	TaxableValuePaise int64       `json:"taxableValuePaise"`
}

func viewFIRAGST(g *store.GSTValue) *firaGSTView {
	if g == nil {
		return nil
	}
	v := &firaGSTView{TimeOfSupply: g.Day, TimeOfSupplyBasis: "settlementDate", InvoiceValue: amountJSON(g.InvoiceAmount, g.Currency),
		InvoiceValueMinor: g.InvoiceAmount,
		Rate:              json.Number(g.Rate), RateDate: g.RateDate, RateBasis: g.Basis(), TaxableValue: inr(g.ValueINR),
		TaxableValuePaise: g.ValueINR}
	if g.ByInvoice() {
		v.TimeOfSupplyBasis = "invoiceDate"
	}
	return v
}

// viewFIRA renders f. Its rateAsOf is when its rate was true: a live rate's
// recorded as-of time, else the settlement, when the sandbox table's rate
// was fixed.
func (s *Server) viewFIRA(f store.FIRA) firaView {
	var invoiceDate *string
	if f.InvoiceDate != "" {
		invoiceDate = &f.InvoiceDate
	}
	return firaView{
		InvoiceDate: invoiceDate, GST: viewFIRAGST(f.GST), Deposits: viewFIRADeposits(f.Deposits),
		ID: f.ID, PaymentID: f.PaymentID, Status: f.Status, RemittingBank: f.RemittingBank, RemittingCountry: f.RemittingCountry,
		AmountForeign: amountJSON(f.AmountForeign, f.ForeignCurrency), AmountForeignMinor: f.AmountForeign,
		ForeignCurrency: f.ForeignCurrency, AmountINR: inr(f.AmountINR), AmountINRPaise: f.AmountINR, SettlementRate: json.Number(f.SettlementRate), PurposeCode: f.PurposeCode,
		PurposeDescription: f.PurposeDescription, InvoiceRef: f.InvoiceRef, SettlementRef: f.SettlementRef,
		SettledAt: ts(f.SettledAt), SettlementDate: india.DateOf(f.SettledAt), RateAsOf: ts(f.RateTime()),
		Remitter: firaRemitter{Name: f.RemitterName, Country: f.RemittingCountry, CountryName: india.CountryName(f.RemittingCountry),
			Bank: f.RemittingBank},
		Beneficiary: firaBeneficiary{Name: f.BeneficiaryName, PAN: f.BeneficiaryPAN, Address: f.BeneficiaryAddress,
			Email: f.BeneficiaryEmail, VaultID: f.VaultID, WalletAddress: f.BeneficiaryWallet},
		Network: viewNetworkTx(f.SettlementRef, f.Ledger, f.Fee, time.Time{}),
		Issuer:  documents.FIRAIssuer, GeneratedAt: ts(f.GeneratedAt),
		DownloadURL: s.cfg.BaseURL + "/api/v1/compliance/fira/" + f.ID + "/pdf",
	}
}

func (s *Server) handleFIRAGet(w http.ResponseWriter, c *call) error {
	f, err := s.db.Tax().FindFIRA(c.r.Context(), c.p.UserID, c.r.PathValue("firaId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.viewFIRA(f))
	return nil
}

type firaList struct {
	Items []firaView `json:"items"`
	pageInfo
}

// handleFIRAList lists the caller's FIRAs newest first; from and to bound
// generatedAt (ISO 8601 date or timestamp, inclusive).
func (s *Server) handleFIRAList(w http.ResponseWriter, c *call) error {
	win, err := listParams(c.r, 20, idPrefixed("fira_"), "a FIRA id (fira_…)")
	if err != nil {
		return err
	}
	q := c.r.URL.Query()
	f := store.FIRAFilter{UserID: c.p.UserID, PaymentID: q.Get("paymentId"), After: win.After, Page: win.Page, Limit: win.Limit}
	if len(f.PaymentID) > 64 {
		return fieldError("paymentId", "is too long")
	}
	if f.From, f.To, err = parseRange(q); err != nil {
		return err
	}
	firas, total, err := s.db.Tax().ListFIRAs(c.r.Context(), f)
	if err != nil {
		return err
	}
	firas, info := pageOf(firas, win, total, func(f store.FIRA) string { return f.ID })
	out := firaList{Items: make([]firaView, 0, len(firas)), pageInfo: info}
	for _, fira := range firas {
		out.Items = append(out.Items, s.viewFIRA(fira))
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// handleFIRAPDF renders the advice on every request instead of storing it:
// RenderFIRA is deterministic and the FIRA row (beneficiary included) never
// changes, so the same FIRA always downloads as the same bytes.
func (s *Server) handleFIRAPDF(w http.ResponseWriter, c *call) error {
	f, err := s.db.Tax().FindFIRA(c.r.Context(), c.p.UserID, c.r.PathValue("firaId"))
	if err != nil {
		return err
	}
	pdf, err := documents.RenderFIRA(f.Document())
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "application/pdf")
	h.Set("Content-Disposition", `attachment; filename="FIRA-`+f.ID+`.pdf"`)
	h.Set("Content-Length", strconv.Itoa(len(pdf)))
	w.WriteHeader(http.StatusOK)
	w.Write(pdf)
	return nil
}
