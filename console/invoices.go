package console

import (
	"net/http"
	"strconv"

	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/taxes"
)

// invoicesShown is how many invoices one page of the list shows.
const invoicesShown = 25

type invoiceRow struct {
	I     store.Invoice
	Watch taxes.Watch // what has been collected, and rule 96A's position
}

type invoicesData struct {
	Rows  []invoiceRow
	Page  int
	Total int
	More  bool
}

// handleInvoices lists the user's export invoices, newest first, with what
// each has collected.
func (c *Console) handleInvoices(w http.ResponseWriter, r *http.Request, u user) {
	ctx := r.Context()
	pg, _ := strconv.Atoi(r.URL.Query().Get("page"))
	pg = max(pg, 1)
	is, total, err := c.db.Invoices().ListInvoices(ctx, u.ID, pg, invoicesShown)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	d := invoicesData{Page: pg, Total: total}
	if len(is) > invoicesShown {
		is, d.More = is[:invoicesShown], true
	}
	if d.Rows, err = c.invoiceRows(r, is); err != nil {
		c.fail(w, r, err)
		return
	}
	c.render(w, r, http.StatusOK, "invoices", page{Title: "Invoices", Nav: "invoices", Data: d})
}

type invoiceData struct {
	I           store.Invoice
	Watch       taxes.Watch
	Collections []store.Collection
	Notes       []store.CreditNote
	Client      *store.Client
	Endorsement string
	Credit      creditForm // the credit note form, as typed when shown again
	Key         string     // the credit note form's Idempotency-Key
}

type creditForm struct{ Date, Amount, Reason string }

// handleInvoice shows one invoice: its lines and values, what has been
// collected against it and its FIRAs, its credit notes, rule 96A's watch,
// the PDF, and the form that issues a credit note.
func (c *Console) handleInvoice(w http.ResponseWriter, r *http.Request, u user) {
	c.invoicePage(w, r, u, http.StatusOK, creditForm{Date: india.DateOf(c.db.Now())}, newKey(), nil)
}

func (c *Console) invoicePage(w http.ResponseWriter, r *http.Request, u user, status int, f creditForm, key string, formErr error) {
	ctx := r.Context()
	i, err := c.db.Invoices().FindInvoice(ctx, u.ID, r.PathValue("id"))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	d := invoiceData{I: i, Credit: f, Key: key, Endorsement: india.EndorsementIGST}
	if i.LUTARN != "" {
		d.Endorsement = india.EndorsementLUT
	}
	if d.Collections, err = c.db.Invoices().Collections(ctx, i.ID); err != nil {
		c.fail(w, r, err)
		return
	}
	if d.Notes, err = c.db.Invoices().CreditNotesOf(ctx, i.ID); err != nil {
		c.fail(w, r, err)
		return
	}
	d.Watch = taxes.WatchOf(i, d.Collections, india.DateOf(c.db.Now()))
	if i.ClientID != "" {
		if cl, err := c.db.Invoices().FindClient(ctx, u.ID, i.ClientID); err == nil {
			d.Client = &cl
		}
	}
	p := page{Title: "Invoice " + i.Number, Nav: "invoices", Data: d}
	p.setErrors(formErr)
	c.render(w, r, status, "invoice", p)
}

// handleInvoicePDF downloads the invoice's PDF, the API's
// GET /invoices/{id}/pdf body.
func (c *Console) handleInvoicePDF(w http.ResponseWriter, r *http.Request, u user) {
	i, err := c.db.Invoices().FindInvoice(r.Context(), u.ID, r.PathValue("id"))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	pdf, err := documents.RenderInvoice(taxes.InvoiceDocument(i))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/pdf")
	h.Set("Content-Disposition", `attachment; filename="Invoice-`+i.FY+"-"+strconv.FormatInt(i.Seq, 10)+`.pdf"`)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.Write(pdf)
}

// clientInvoices reads the newest invoices to a client with what each
// collected, and how many there are.
func (c *Console) clientInvoices(r *http.Request, u user, clientID string) ([]invoiceRow, int, error) {
	is, total, err := c.db.ClientInvoices(r.Context(), u.ID, clientID, clientShown)
	if err != nil {
		return nil, 0, err
	}
	rows, err := c.invoiceRows(r, is)
	return rows, total, err
}

// invoiceRows sets each invoice against what collected it, today.
func (c *Console) invoiceRows(r *http.Request, is []store.Invoice) ([]invoiceRow, error) {
	today := india.DateOf(c.db.Now())
	out := make([]invoiceRow, 0, len(is))
	for _, i := range is {
		cs, err := c.db.Invoices().Collections(r.Context(), i.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, invoiceRow{I: i, Watch: taxes.WatchOf(i, cs, today)})
	}
	return out, nil
}
