package console

import (
	"net/http"
	"strings"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/input"
	"github.com/payoutd/payoutd/store"
)

type clientsData struct {
	Items []store.Client
	Form  input.Client
}

// handleClients lists the user's clients with the form that adds one.
func (c *Console) handleClients(w http.ResponseWriter, r *http.Request, u user) {
	c.clientsPage(w, r, u, http.StatusOK, input.Client{}, nil)
}

func (c *Console) clientsPage(w http.ResponseWriter, r *http.Request, u user, status int, form input.Client, formErr error) {
	items, err := c.db.Invoices().ListClients(r.Context(), u.ID)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	p := page{Title: "Clients", Nav: "clients", Data: clientsData{Items: items, Form: form}}
	p.setErrors(formErr)
	c.render(w, r, status, "clients", p)
}

// clientForm reads the client form (the API's ClientRequest fields).
func clientForm(r *http.Request) (input.Client, error) {
	f := r.PostForm
	q := input.Client{Name: strings.TrimSpace(f.Get("name")), Country: strings.ToUpper(strings.TrimSpace(f.Get("country"))),
		Address: strings.TrimSpace(f.Get("address")), Email: strings.TrimSpace(f.Get("email")),
		PurposeCode: strings.ToUpper(strings.TrimSpace(f.Get("purposeCode"))), Currency: strings.ToUpper(strings.TrimSpace(f.Get("currency"))),
		Notes: strings.TrimSpace(f.Get("notes"))}
	return q, textFields(map[string]string{"name": q.Name, "address": q.Address, "notes": q.Notes})
}

// handleClientCreate adds a client (input.Client and CreateClient, as
// POST /clients) and opens its page.
func (c *Console) handleClientCreate(w http.ResponseWriter, r *http.Request, u user) {
	q, err := clientForm(r)
	var cl store.Client
	if err == nil {
		cl, err = q.Validate(u.ID, u.Livemode)
	}
	if err == nil {
		err = c.db.WithTx(r.Context(), func(tx *store.Tx) (err error) {
			cl, err = tx.Invoices().CreateClient(cl)
			return err
		}, c.txOpts(r, u))
	}
	if apperr.Code(err) == apperr.ErrValidation {
		c.clientsPage(w, r, u, http.StatusBadRequest, q, err)
		return
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.flash(r, "Client "+cl.Name+" added.")
	http.Redirect(w, r, Prefix+"clients/"+cl.ID, http.StatusSeeOther)
}

type clientData struct {
	C         store.Client
	Form      input.Client
	FY        india.FY
	Year      store.ClientReceipts
	Payouts   []store.Payment
	Total     int // of its payouts
	FIRAs     []store.FIRA
	FIRATotal int
	// Invoices are the newest issued to it, with what each collected.
	Invoices     []invoiceRow
	InvoiceTotal int
}

// clientShown is how many payouts and FIRAs a client's page lists; the
// Payouts page lists the rest.
const clientShown = 10

// handleClient shows a client: its details (editable), what it paid this
// financial year in INR, and its latest payouts and FIRAs.
func (c *Console) handleClient(w http.ResponseWriter, r *http.Request, u user) {
	cl, err := c.db.Invoices().FindClient(r.Context(), u.ID, r.PathValue("id"))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.clientPage(w, r, u, http.StatusOK, cl, formOf(cl), nil)
}

func formOf(cl store.Client) input.Client {
	return input.Client{Name: cl.Name, Country: cl.Country, Address: cl.Address, Email: cl.Email,
		PurposeCode: cl.PurposeCode, Currency: cl.Currency, Notes: cl.Notes}
}

func (c *Console) clientPage(w http.ResponseWriter, r *http.Request, u user, status int, cl store.Client, form input.Client, formErr error) {
	ctx := r.Context()
	d := clientData{C: cl, Form: form, FY: india.FYOf(c.db.Now())}
	var err error
	if d.Year, err = c.db.Invoices().ClientReceiptsBetween(ctx, u.ID, cl.ID, d.FY.Start(), d.FY.End()); err != nil {
		c.fail(w, r, err)
		return
	}
	if d.Payouts, d.Total, err = c.db.Payments().ListPayments(ctx, store.PaymentFilter{UserID: u.ID, ClientID: cl.ID, Page: 1, Limit: clientShown}); err != nil {
		c.fail(w, r, err)
		return
	}
	d.Payouts = d.Payouts[:min(len(d.Payouts), clientShown)]
	if d.FIRAs, d.FIRATotal, err = c.db.Tax().ListFIRAs(ctx, store.FIRAFilter{UserID: u.ID, ClientID: cl.ID, Page: 1, Limit: clientShown}); err != nil {
		c.fail(w, r, err)
		return
	}
	d.FIRAs = d.FIRAs[:min(len(d.FIRAs), clientShown)]
	if d.Invoices, d.InvoiceTotal, err = c.clientInvoices(r, u, cl.ID); err != nil {
		c.fail(w, r, err)
		return
	}
	p := page{Title: "Client " + cl.Name, Nav: "clients", Data: d}
	p.setErrors(formErr)
	c.render(w, r, status, "client", p)
}

// handleClientUpdate saves a client's details (UpdateClient, as PUT
// /clients/{id}); payouts already made keep theirs.
func (c *Console) handleClientUpdate(w http.ResponseWriter, r *http.Request, u user) {
	old, err := c.db.Invoices().FindClient(r.Context(), u.ID, r.PathValue("id"))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	q, err := clientForm(r)
	var cl store.Client
	if err == nil {
		cl, err = q.Validate(u.ID, u.Livemode)
	}
	if err == nil {
		cl.ID = old.ID
		err = c.db.WithTx(r.Context(), func(tx *store.Tx) (err error) {
			cl, err = tx.Invoices().UpdateClient(cl)
			return err
		}, c.txOpts(r, u))
	}
	if apperr.Code(err) == apperr.ErrValidation {
		c.clientPage(w, r, u, http.StatusBadRequest, old, q, err)
		return
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.flash(r, "Client "+cl.Name+" saved.")
	http.Redirect(w, r, Prefix+"clients/"+cl.ID, http.StatusSeeOther)
}
