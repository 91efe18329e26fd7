package server

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/input"
	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/taxes"
)

type invoiceLineView struct {
	Description string      `json:"description"`
	SAC         string      `json:"sac"`
	Amount      json.Number `json:"amount"`
	AmountMinor int64       `json:"amountMinor"`
}

type partyView struct {
	Name    string `json:"name"`
	Address string `json:"address"`
	GSTIN   string `json:"gstin,omitempty"`
	State   string `json:"state,omitempty"`
	Country string `json:"country,omitempty"`
}

// collectionView is a payout that names the invoice: what it brought in,
// in the invoice currency and in INR, and its FIRA.
type collectionView struct {
	PaymentID      string       `json:"paymentId"`
	Status         string       `json:"status"`
	Amount         json.Number  `json:"amount"`
	AmountMinor    int64        `json:"amountMinor"`
	Collected      bool         `json:"collected"`
	AmountINR      *json.Number `json:"amountInr"`
	AmountINRPaise *int64       `json:"amountInrPaise"`
	FiraID         *string      `json:"firaId"`
}

type creditNoteView struct {
	ID            string      `json:"id"`
	Number        string      `json:"number"`
	Date          string      `json:"date"`
	Amount        json.Number `json:"amount"`
	AmountMinor   int64       `json:"amountMinor"`
	ValueINR      json.Number `json:"valueInr"`
	ValueINRPaise int64       `json:"valueInrPaise"`
	IGST          json.Number `json:"igst"`
	IGSTPaise     int64       `json:"igstPaise"`
	Reason        string      `json:"reason"`
	CreatedAt     string      `json:"createdAt"`
}

// realisationView is rule 96A's watch of a LUT invoice not fully paid.
type realisationView struct {
	Limit             string      `json:"limit"`
	PayBy             string      `json:"payBy"`
	WatchFrom         string      `json:"watchFrom"`
	Due               bool        `json:"due"`
	Overdue           bool        `json:"overdue"`
	TaxableValue      json.Number `json:"taxableValue"`
	TaxableValuePaise int64       `json:"taxableValuePaise"`
	IGST              json.Number `json:"igst"`
	IGSTPaise         int64       `json:"igstPaise"`
	Interest          json.Number `json:"interest"`
	InterestPaise     int64       `json:"interestPaise"`
	InterestDays      int64       `json:"interestDays"`
	Rule              string      `json:"rule"`
	Message           string      `json:"message"`
}

type invoiceView struct {
	ID                string            `json:"id"`
	Number            string            `json:"number"`
	Date              string            `json:"date"`
	FinancialYear     string            `json:"financialYear"`
	Status            string            `json:"status"`
	Currency          string            `json:"currency"`
	Lines             []invoiceLineView `json:"lines"`
	Total             json.Number       `json:"total"`
	TotalMinor        int64             `json:"totalMinor"`
	INRRate           json.Number       `json:"inrRate"`
	RateDate          string            `json:"rateDate"`
	RateBasis         string            `json:"rateBasis"`
	TaxableValue      json.Number       `json:"taxableValue"`
	TaxableValuePaise int64             `json:"taxableValuePaise"`
	IGST              json.Number       `json:"igst"`
	IGSTPaise         int64             `json:"igstPaise"`
	LUTARN            *string           `json:"lutArn"`
	Endorsement       string            `json:"endorsement"`
	PlaceOfSupply     string            `json:"placeOfSupply"`
	Supplier          partyView         `json:"supplier"`
	Recipient         partyView         `json:"recipient"`
	ClientID          *string           `json:"clientId"`
	Credited          json.Number       `json:"credited"`
	CreditedMinor     int64             `json:"creditedMinor"`
	Collected         json.Number       `json:"collected"`
	CollectedMinor    int64             `json:"collectedMinor"`
	CollectedINR      json.Number       `json:"collectedInr"`
	CollectedINRPaise int64             `json:"collectedInrPaise"`
	Collections       []collectionView  `json:"collections"`
	CreditNotes       []creditNoteView  `json:"creditNotes"`
	Realisation       *realisationView  `json:"realisation"`
	// RealisationFlaggedOn is the day rule 96A's watch sent
	// invoice.realisation_due for it; null before.
	RealisationFlaggedOn *string `json:"realisationFlaggedOn"`
	Version              int64   `json:"version"`
	PDFURL               string  `json:"pdfUrl"`
	CreatedAt            string  `json:"createdAt"`
}

func (s *Server) viewInvoice(i store.Invoice, cs []store.Collection, notes []store.CreditNote) invoiceView {
	amt := func(minor int64) json.Number { return amountJSON(minor, i.Currency) }
	v := invoiceView{ID: i.ID, Number: i.Number, Date: i.Date, FinancialYear: i.FY, Status: "issued", Currency: i.Currency,
		Total: amt(i.Total), TotalMinor: i.Total, INRRate: json.Number(i.Rate), RateDate: i.RateDate, RateBasis: i.RateBasis,
		TaxableValue: inr(i.ValueINR), TaxableValuePaise: i.ValueINR, IGST: inr(i.IGST), IGSTPaise: i.IGST,
		Endorsement: india.EndorsementIGST, PlaceOfSupply: india.PlaceOfSupplyExport,
		Supplier:  partyView{Name: i.Supplier.Name, Address: i.Supplier.Address, GSTIN: i.Supplier.GSTIN, State: i.Supplier.State},
		Recipient: partyView{Name: i.Recipient.Name, Address: i.Recipient.Address, Country: i.Recipient.Country},
		Credited:  amt(i.Credited), CreditedMinor: i.Credited, Collections: []collectionView{}, CreditNotes: []creditNoteView{},
		PDFURL: s.cfg.BaseURL + "/api/v1/invoices/" + i.ID + "/pdf", CreatedAt: ts(i.CreatedAt), Version: i.Version}
	if i.FlaggedOn != "" {
		v.RealisationFlaggedOn = &i.FlaggedOn
	}
	if i.Cancelled() {
		v.Status = "cancelled"
	}
	if i.LUTARN != "" {
		v.LUTARN, v.Endorsement = &i.LUTARN, india.EndorsementLUT
	}
	if i.ClientID != "" {
		v.ClientID = &i.ClientID
	}
	for _, l := range i.Lines {
		v.Lines = append(v.Lines, invoiceLineView{Description: l.Description, SAC: l.SAC, Amount: amt(l.Amount), AmountMinor: l.Amount})
	}
	w := taxes.WatchOf(i, cs, india.DateOf(s.db.Now()))
	for _, c := range cs {
		cv := collectionView{PaymentID: c.PaymentID, Status: c.Status, Amount: amt(c.Amount), AmountMinor: c.Amount, Collected: c.Collected()}
		if c.Collected() {
			n := inr(*c.AmountINR)
			cv.AmountINR, cv.AmountINRPaise = &n, c.AmountINR
		}
		if c.FiraID != "" {
			cv.FiraID = &c.FiraID
		}
		v.Collections = append(v.Collections, cv)
	}
	v.Collected, v.CollectedMinor = amt(w.Collected), w.Collected
	v.CollectedINR, v.CollectedINRPaise = inr(w.CollectedINR), w.CollectedINR
	for _, n := range notes {
		v.CreditNotes = append(v.CreditNotes, creditNoteView{ID: n.ID, Number: n.Number, Date: n.Date, Amount: amt(n.Amount),
			AmountMinor: n.Amount, ValueINR: inr(n.ValueINR), ValueINRPaise: n.ValueINR, IGST: inr(n.IGST), IGSTPaise: n.IGST,
			Reason: n.Reason, CreatedAt: ts(n.CreatedAt)})
	}
	v.Realisation = viewRealisation(w)
	return v
}

// viewRealisation is the rule 96A watch of an invoice; nil when none applies.
func viewRealisation(w taxes.Watch) *realisationView {
	if !w.Watched {
		return nil
	}
	r := w.Watch
	return &realisationView{Limit: r.Limit, PayBy: r.PayBy, WatchFrom: r.WatchFrom, Due: r.Due, Overdue: r.Overdue,
		TaxableValue: inr(r.Taxable), TaxableValuePaise: r.Taxable, IGST: inr(r.IGST), IGSTPaise: r.IGST,
		Interest: inr(r.Interest), InterestPaise: r.Interest, InterestDays: r.DaysOfInterest, Rule: taxes.RealisationRule,
		Message: r.RealisationMessage(w.Invoice.Number)}
}

// invoiceIn reads an invoice with its collections and credit notes.
func (s *Server) invoiceIn(c *call, id string) (invoiceView, store.Invoice, error) {
	ctx := c.r.Context()
	i, err := s.db.FindInvoice(ctx, c.p.UserID, id)
	if err != nil {
		return invoiceView{}, i, err
	}
	cs, err := s.db.Collections(ctx, i.ID)
	if err != nil {
		return invoiceView{}, i, err
	}
	notes, err := s.db.CreditNotesOf(ctx, i.ID)
	if err != nil {
		return invoiceView{}, i, err
	}
	return s.viewInvoice(i, cs, notes), i, nil
}

// handleInvoiceCreate issues an export invoice (taxes.IssueInvoice).
func (s *Server) handleInvoiceCreate(w http.ResponseWriter, c *call) error {
	var q input.Invoice
	if err := decodeJSON(c.body, &q); err != nil {
		return err
	}
	if q.ClientID != "" {
		cl, err := s.db.FindClient(c.r.Context(), c.p.UserID, q.ClientID)
		if apperr.Code(err) == apperr.ErrNotFound {
			return fieldError("clientId", "is not a client of this account")
		}
		if err != nil {
			return err
		}
		q.UseClient(cl)
	}
	if err := q.Validate(s.db.Now()); err != nil {
		return err
	}
	req := taxes.InvoiceRequest{UserID: c.p.UserID, Livemode: c.p.Livemode, Date: q.Date, Currency: q.Currency, Rate: q.INRRate,
		Recipient: store.Party{Name: q.Recipient.Name, Address: q.Recipient.Address, Country: q.Recipient.Country}, ClientID: q.ClientID}
	for _, l := range q.Lines {
		req.Lines = append(req.Lines, store.InvoiceLine{Description: l.Description, SAC: l.SAC, Amount: l.Minor()})
	}
	return s.reply(w, c, http.StatusCreated, func(tx *store.Tx) (any, error) {
		i, err := taxes.IssueInvoice(tx, s.cfg.Rates, req)
		return s.viewInvoice(i, nil, nil), err
	})
}

type invoiceList struct {
	Items []invoiceView `json:"items"`
	pageInfo
}

func (s *Server) handleInvoiceList(w http.ResponseWriter, c *call) error {
	win, err := listParams(c.r, 20, func(string) bool { return false }, "")
	if err != nil {
		return err
	}
	is, total, err := s.db.ListInvoices(c.r.Context(), c.p.UserID, win.Page, win.Limit)
	if err != nil {
		return err
	}
	out := invoiceList{Items: []invoiceView{}, pageInfo: pageInfo{Total: total, Page: win.Page, Limit: win.Limit}}
	if len(is) > win.Limit {
		is, out.HasMore = is[:win.Limit], true
	}
	for _, i := range is {
		cs, err := s.db.Collections(c.r.Context(), i.ID)
		if err != nil {
			return err
		}
		out.Items = append(out.Items, s.viewInvoice(i, cs, nil))
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s *Server) handleInvoiceGet(w http.ResponseWriter, c *call) error {
	v, _, err := s.invoiceIn(c, c.r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, v)
	return nil
}

func (s *Server) handleInvoicePDF(w http.ResponseWriter, c *call) error {
	i, err := s.db.FindInvoice(c.r.Context(), c.p.UserID, c.r.PathValue("id"))
	if err != nil {
		return err
	}
	pdf, err := documents.RenderInvoice(InvoiceDocument(i))
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "application/pdf")
	h.Set("Content-Disposition", `attachment; filename="Invoice-`+i.FY+"-"+strconv.FormatInt(i.Seq, 10)+`.pdf"`)
	h.Set("Content-Length", strconv.Itoa(len(pdf)))
	w.WriteHeader(http.StatusOK)
	w.Write(pdf)
	return nil
}

// InvoiceDocument is the invoice as its PDF prints it.
func InvoiceDocument(i store.Invoice) documents.Invoice {
	cur, _ := money.Lookup(i.Currency)
	d := documents.Invoice{ID: i.ID, Number: i.Number, Date: i.Date, Livemode: i.Livemode, Currency: i.Currency, Exponent: cur.Exponent,
		Total: i.Total, Rate: i.Rate, RateDate: i.RateDate, ValueINR: i.ValueINR, IGST: i.IGST, LUTARN: i.LUTARN, Credited: i.Credited,
		IssuedAt:  i.CreatedAt,
		Supplier:  documents.InvoiceParty{Name: i.Supplier.Name, Address: i.Supplier.Address, GSTIN: i.Supplier.GSTIN, State: i.Supplier.State},
		Recipient: documents.InvoiceParty{Name: i.Recipient.Name, Address: i.Recipient.Address, Country: i.Recipient.Country}}
	for _, l := range i.Lines {
		d.Lines = append(d.Lines, documents.InvoiceLine{Description: l.Description, SAC: l.SAC, Amount: l.Amount})
	}
	return d
}

// handleCreditNoteCreate issues a credit note against an invoice: part of
// it, or all it still holds (a cancellation).
func (s *Server) handleCreditNoteCreate(w http.ResponseWriter, c *call) error {
	var q input.CreditNote
	if err := decodeJSON(c.body, &q); err != nil {
		return err
	}
	if err := q.Validate(s.db.Now()); err != nil {
		return err
	}
	id := c.r.PathValue("id")
	inv, err := s.db.FindInvoice(c.r.Context(), c.p.UserID, id)
	if err != nil {
		return err
	}
	minor, err := q.AmountIn(inv.Currency)
	if err != nil {
		return err
	}
	req := taxes.CreditRequest{UserID: c.p.UserID, InvoiceID: id, Livemode: c.p.Livemode, Date: q.Date, Amount: minor, Reason: q.Reason}
	return s.reply(w, c, http.StatusCreated, func(tx *store.Tx) (any, error) {
		n, err := taxes.CreditInvoice(tx, req)
		amt := func(minor int64) json.Number { return amountJSON(minor, inv.Currency) }
		return creditNoteView{ID: n.ID, Number: n.Number, Date: n.Date, Amount: amt(n.Amount), AmountMinor: n.Amount,
			ValueINR: inr(n.ValueINR), ValueINRPaise: n.ValueINR, IGST: inr(n.IGST), IGSTPaise: n.IGST, Reason: n.Reason,
			CreatedAt: ts(n.CreatedAt)}, err
	})
}

// handleGSTR1 exports a month's (or a QRMP quarter's) exports as GSTR-1
// (taxes.GSTR1, which the console downloads too).
func (s *Server) handleGSTR1(w http.ResponseWriter, c *call) error {
	period := c.r.URL.Query().Get("period")
	if period == "" {
		return fieldError("period", "is required: a month YYYY-MM, or a quarter YYYY-Qn for a QRMP filer")
	}
	g, err := taxes.GSTR1(c.r.Context(), s.db, c.p.UserID, period)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, g)
	return nil
}

// collectsInvoice applies initiate's invoiceId: the invoice must be the
// caller's, in the payout's currency and not cancelled; its number becomes
// invoiceRef (one given must be the same) and its date invoiceDate.
func collectsInvoice(tx *store.Tx, p store.Payment, invoiceID string) (store.Payment, *store.Invoice, error) {
	if invoiceID == "" {
		return p, nil, nil
	}
	inv, err := tx.InvoiceInTx(p.UserID, invoiceID)
	if err != nil {
		return p, nil, fieldError("invoiceId", "is not one of your invoices")
	}
	switch {
	case inv.Currency != p.Currency:
		return p, nil, fieldError("invoiceId", "invoice "+inv.Number+" is in "+inv.Currency+"; the payout must be in the same currency")
	case inv.Cancelled():
		return p, nil, fieldError("invoiceId", "invoice "+inv.Number+" is cancelled by credit notes")
	case p.InvoiceRef != "" && p.InvoiceRef != inv.Number:
		return p, nil, fieldError("invoiceRef", "must be "+inv.Number+", the number of invoiceId, or be left out")
	}
	p.InvoiceRef = inv.Number
	if p.InvoiceDate == "" {
		p.InvoiceDate = inv.Date
	}
	return p, &inv, nil
}
