package console

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

// TestInvoicePages: an invoice issued from the console to a client on
// record takes the client's details; the same form sent again issues it
// once; bad input is refused next to its field; the PDF downloads; a
// payout collecting it shows on the invoice with its FIRA; a credit note
// is issued; the client's page lists the invoice.
func TestInvoicePages(t *testing.T) {
	is := is.New(t)
	h := newHarness(t, harnessOpts{river: true})
	u, key := h.newUser("asha@example.com", false)
	status, _ := h.api("POST", "/api/v1/sandbox/kyc/approve", key, "")
	is.Equal(status, http.StatusOK)
	status, body := h.api("PATCH", "/api/v1/profile", key, `{"name":"Asha Rao","address":"12 MG Road, Pune","pan":"ABCPR1234K"}`)
	is.Equal(status, http.StatusOK)
	status, body = h.api("POST", "/api/v1/clients", key, `{"name":"Acme Corp","country":"US","address":"1 Market St, San Francisco","currency":"USD","purposeCode":"P0802"}`)
	is.Equal(status, http.StatusCreated)
	client := regexp.MustCompile(`"id":"(cli_[0-9a-z]+)"`).FindStringSubmatch(body)[1]

	today := india.DateOf(h.db.Now())
	b := h.signIn(u)
	is.Equal(b.get("/console/invoices/new?client="+client), http.StatusOK)
	is.True(b.has(`value="Acme Corp"`))
	form := url.Values{"idempotencyKey": {b.hidden("idempotencyKey")}, "clientId": {client}, "date": {today},
		"recipient.name": {""}, "recipient.address": {""}, "recipient.country": {""}, "currency": {""}}
	is.Equal(b.post("/console/invoices", form), http.StatusBadRequest) // no line
	is.True(b.has("Services must list at least one service"))
	form.Set("lines[0].description", "Website design, March")
	form.Set("lines[0].amount", "250.005")
	is.Equal(b.post("/console/invoices", form), http.StatusBadRequest)
	is.True(b.errorNextTo("lines[0].amount") != "")
	is.True(b.has(`value="250.005"`)) // as typed
	form.Set("lines[0].amount", "250.00")
	is.Equal(b.post("/console/invoices", form), http.StatusSeeOther)
	inv := b.location()
	is.True(strings.HasPrefix(inv, "/console/invoices/inv_"))
	is.Equal(b.do("POST", "/console/invoices", form), http.StatusSeeOther) // sent again, as Back and resubmit do
	is.Equal(b.location(), inv)
	_, total, err := h.db.Invoices().ListInvoices(context.Background(), u.ID, 1, 10)
	is.NoErr(err)
	is.Equal(total, 1)

	is.Equal(b.get(inv), http.StatusOK)
	is.True(b.has("Acme Corp, 1 Market St, San Francisco, US"))
	is.True(b.has("USD 250.00"))
	is.True(b.has("SUPPLY MEANT FOR EXPORT ON PAYMENT OF INTEGRATED TAX")) // no LUT recorded
	number := regexp.MustCompile(`<h1>Invoice (INV/[0-9-]+/\d{5})</h1>`).FindStringSubmatch(b.page)[1]
	is.Equal(b.get(inv+"/pdf"), http.StatusOK)
	is.True(strings.HasPrefix(b.page, "%PDF-"))

	// Collected by a payout from its page's link.
	b.get(inv)
	b.get("/console/payouts/new?invoice=" + strings.TrimPrefix(inv, "/console/invoices/"))
	is.Equal(b.status, http.StatusSeeOther) // a key is added to the address
	b.follow()
	is.True(b.has("This payout collects invoice"))
	is.True(b.has(`value="250.00"`))
	pay := url.Values{"idempotencyKey": {b.hidden("idempotencyKey")}, "invoiceId": {b.hidden("invoiceId")}, "amount": {"250.00"},
		"currency": {"USD"}, "destinationAddress": {testAddress}, "clientId": {client}, "invoiceRef": {number}}
	is.Equal(b.post("/console/payouts/new", pay), http.StatusSeeOther)
	id := strings.TrimSuffix(strings.TrimPrefix(b.location(), "/console/payouts/"), "/confirm")
	is.Equal(b.confirm(id, ""), http.StatusSeeOther)
	p := h.waitStatus(u.ID, id, store.StatusCompleted)
	is.True(p.FiraID != "")
	b.get(inv)
	is.True(b.has(`<a href="/console/payouts/` + id + `">`))
	is.True(b.has(`<a href="/console/firas/` + p.FiraID + `">`))
	is.True(b.has(`<span class="badge badge-ok">collected</span>`))

	// A credit note for part of it.
	credit := url.Values{"idempotencyKey": {b.hidden("idempotencyKey")}, "date": {today}, "amount": {"50.00"}, "reason": {"fee reduced"}}
	is.Equal(b.post(inv+"/credit-notes", credit), http.StatusSeeOther)
	b.follow()
	is.True(b.has("Credit note issued."))
	is.True(regexp.MustCompile(`CN/[0-9-]+/00001, [^:]+: USD 50.00`).MatchString(b.page))

	b.get("/console/clients/" + client)
	is.True(b.has(number))
	b.get("/console/invoices")
	is.True(b.has(number))
}
