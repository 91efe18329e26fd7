package console

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/input"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/taxes"
)

// invoiceFormLines is how many line rows the form offers.
const invoiceFormLines = 3

func newKey() string { return uuid.NewString() }

type invoiceFormData struct {
	Form    input.Invoice
	Lines   []input.InvoiceLine // invoiceFormLines rows, as typed
	Clients []store.Client
	Key     string
}

// handleNewInvoice shows the form that issues an export invoice, with a
// client's details when one is chosen (?client=).
func (c *Console) handleNewInvoice(w http.ResponseWriter, r *http.Request, u user) {
	f := input.Invoice{Date: india.DateOf(c.db.Now()), ClientID: r.URL.Query().Get("client")}
	if f.ClientID != "" {
		cl, err := c.db.Invoices().FindClient(r.Context(), u.ID, f.ClientID)
		if err != nil {
			c.fail(w, r, err)
			return
		}
		f.Currency, f.Recipient = cl.Currency, input.Recipient{Name: cl.Name, Address: cl.Address, Country: cl.Country}
	}
	c.newInvoicePage(w, r, u, http.StatusOK, f, newKey(), nil)
}

func (c *Console) newInvoicePage(w http.ResponseWriter, r *http.Request, u user, status int, f input.Invoice, key string, formErr error) {
	cls, err := c.db.Invoices().ListClients(r.Context(), u.ID)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	d := invoiceFormData{Form: f, Clients: cls, Key: key, Lines: make([]input.InvoiceLine, invoiceFormLines)}
	copy(d.Lines, f.Lines)
	if d.Lines[0].SAC == "" {
		d.Lines[0].SAC = india.SACITDesign
	}
	p := page{Title: "New invoice", Nav: "invoices", Data: d}
	p.setErrors(formErr)
	c.render(w, r, status, "invoice_new", p)
}

// invoiceFromForm reads the form as the API's body; rows left empty are
// not lines. A chosen client fills the recipient fields left empty.
func (c *Console) invoiceFromForm(r *http.Request, u user) (input.Invoice, error) {
	f := r.PostForm
	q := input.Invoice{Date: strings.TrimSpace(f.Get("date")), Currency: strings.ToUpper(strings.TrimSpace(f.Get("currency"))),
		INRRate: strings.TrimSpace(f.Get("inrRate")), ClientID: f.Get("clientId"),
		Recipient: input.Recipient{Name: strings.TrimSpace(f.Get("recipient.name")), Address: strings.TrimSpace(f.Get("recipient.address")),
			Country: strings.ToUpper(strings.TrimSpace(f.Get("recipient.country")))}}
	for i := range invoiceFormLines {
		l := input.InvoiceLine{Description: strings.TrimSpace(f.Get(fmt.Sprintf("lines[%d].description", i))),
			SAC: strings.TrimSpace(f.Get(fmt.Sprintf("lines[%d].sac", i))), Amount: json.Number(strings.TrimSpace(f.Get(fmt.Sprintf("lines[%d].amount", i))))}
		if l.Description != "" || l.Amount != "" {
			q.Lines = append(q.Lines, l)
		}
	}
	if q.ClientID == "" {
		return q, nil
	}
	cl, err := c.db.Invoices().FindClient(r.Context(), u.ID, q.ClientID)
	if err != nil {
		return q, input.FieldError("clientId", "is not one of your clients")
	}
	rec := &q.Recipient
	rec.Name, rec.Address, rec.Country = cmpOr(rec.Name, cl.Name), cmpOr(rec.Address, cl.Address), cmpOr(rec.Country, cl.Country)
	q.Currency = cmpOr(q.Currency, cl.Currency)
	return q, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// handleInvoiceCreate issues the invoice (input.Invoice and
// taxes.IssueInvoice, as POST /invoices); the same form sent twice issues
// one.
func (c *Console) handleInvoiceCreate(w http.ResponseWriter, r *http.Request, u user) {
	key := r.PostForm.Get("idempotencyKey")
	if uuid.Validate(key) != nil {
		c.problem(w, r, http.StatusBadRequest, "Form expired", "This form has no valid key, so no invoice was issued. Open New invoice again.")
		return
	}
	q, err := c.invoiceFromForm(r, u)
	if err == nil {
		err = q.Validate(c.db.Now())
	}
	if err == nil {
		err = textFields(map[string]string{"recipient.name": q.Recipient.Name, "recipient.address": q.Recipient.Address})
	}
	var target string
	if err == nil {
		req := taxes.InvoiceRequest{UserID: u.ID, Livemode: u.Livemode, Date: q.Date, Currency: q.Currency, Rate: q.INRRate,
			Recipient: store.Party{Name: q.Recipient.Name, Address: q.Recipient.Address, Country: q.Recipient.Country}, ClientID: q.ClientID}
		details := []string{q.Date, q.Currency, q.INRRate, q.ClientID, q.Recipient.Name, q.Recipient.Address, q.Recipient.Country}
		for _, l := range q.Lines {
			req.Lines = append(req.Lines, store.InvoiceLine{Description: l.Description, SAC: l.SAC, Amount: l.Minor()})
			details = append(details, l.Description, l.SAC, strconv.FormatInt(l.Minor(), 10))
		}
		target, err = c.once(r, u, "invoice", key, details, func(tx *store.Tx) (string, error) {
			i, err := taxes.IssueInvoice(tx, c.cfg.Rates, req)
			return Prefix + "invoices/" + i.ID, err
		})
	}
	if _, ok := asStoreError(err); ok {
		c.newInvoicePage(w, r, u, http.StatusBadRequest, q, key, err)
		return
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.flash(r, "Invoice issued.")
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// handleCreditNote issues a credit note against the invoice (input.CreditNote
// and taxes.CreditInvoice, as POST /invoices/{id}/credit-notes): an amount,
// or, left empty, all the invoice still holds (a cancellation).
func (c *Console) handleCreditNote(w http.ResponseWriter, r *http.Request, u user) {
	f := creditForm{Date: strings.TrimSpace(r.PostForm.Get("date")), Amount: strings.TrimSpace(r.PostForm.Get("amount")),
		Reason: strings.TrimSpace(r.PostForm.Get("reason"))}
	key := r.PostForm.Get("idempotencyKey")
	if uuid.Validate(key) != nil {
		c.problem(w, r, http.StatusBadRequest, "Form expired", "This form has no valid key, so no credit note was issued. Open the invoice again.")
		return
	}
	inv, err := c.db.Invoices().FindInvoice(r.Context(), u.ID, r.PathValue("id"))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	q := input.CreditNote{Date: f.Date, Amount: json.Number(f.Amount), Reason: f.Reason}
	err = q.Validate(c.db.Now())
	var minor int64
	if err == nil {
		minor, err = q.AmountIn(inv.Currency)
	}
	if err == nil {
		err = textFields(map[string]string{"reason": q.Reason})
	}
	if err == nil {
		req := taxes.CreditRequest{UserID: u.ID, InvoiceID: inv.ID, Livemode: u.Livemode, Date: q.Date, Amount: minor, Reason: q.Reason}
		_, err = c.once(r, u, "credit_note", key, []string{inv.ID, q.Date, strconv.FormatInt(minor, 10), q.Reason}, func(tx *store.Tx) (string, error) {
			_, err := taxes.CreditInvoice(tx, req)
			return Prefix + "invoices/" + inv.ID, err
		})
	}
	if _, ok := asStoreError(err); ok {
		c.invoicePage(w, r, u, http.StatusBadRequest, f, key, err)
		return
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.flash(r, "Credit note issued.")
	http.Redirect(w, r, Prefix+"invoices/"+inv.ID+"#credit-notes", http.StatusSeeOther)
}
