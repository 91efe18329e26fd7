package console

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/store"
)

// TestClientCreatedAndPaid: a client added in the console is the API's
// client; paying with it from its page fills the remitter, so a
// cross-border payout needs no name typed; the client's page then lists
// the payout and, once it completes, the INR received this year and its
// FIRA; a bad e-mail is refused next to its field with what was typed
// kept.
func TestClientCreatedAndPaid(t *testing.T) {
	is := is.New(t)
	h := newHarness(t, harnessOpts{river: true})
	u, key := h.newUser("asha@example.com", false)
	status, _ := h.api("POST", "/api/v1/sandbox/kyc/approve", key, "")
	is.Equal(status, http.StatusOK)
	b := h.signIn(u)

	b.get("/console/clients")
	is.Equal(b.post("/console/clients", url.Values{"name": {"Acme Corp"}, "email": {"not-mail"}}), http.StatusBadRequest)
	is.True(b.errorNextTo("email") != "")
	is.True(b.has(`value="Acme Corp"`))
	is.Equal(b.post("/console/clients", url.Values{"name": {"Acme Corp"}, "country": {"us"}, "purposeCode": {"P0802"},
		"currency": {"USD"}, "email": {"ap@acme.example"}}), http.StatusSeeOther)
	page := b.location()
	id := strings.TrimPrefix(page, "/console/clients/")
	status, body := h.api("GET", "/api/v1/clients/"+id, key, "")
	is.Equal(status, http.StatusOK)
	is.True(strings.Contains(body, `"country":"US"`))

	b.follow()
	is.Equal(b.get("/console/payouts/new?client="+id), http.StatusSeeOther)
	b.follow()
	is.True(b.has(`<option value="` + id + `" selected>Acme Corp (US)</option>`))
	is.Equal(b.post("/console/payouts/new", url.Values{"idempotencyKey": {b.hidden("idempotencyKey")}, "clientId": {id},
		"amount": {"450.00"}, "currency": {"USD"}, "destinationAddress": {testAddress}, "invoiceRef": {"INV-450"}}), http.StatusSeeOther)
	payID := payoutOf(b.location())
	p, err := h.db.Payments().FindPayment(context.Background(), u.ID, payID)
	is.NoErr(err)
	is.Equal(p.ClientID, id)
	is.Equal(p.CounterpartyName, "Acme Corp")
	is.Equal(p.CounterpartyCountry, "US")
	is.Equal(b.confirm(payID, ""), http.StatusSeeOther)
	h.waitStatus(u.ID, payID, store.StatusCompleted)

	b.get(page)
	is.True(b.has(payID))
	is.True(b.has("1 completed payout"))
	is.True(b.has("₹37,462.50")) // USD 450.00 at the sandbox's 83.25
	is.True(b.has("1 FIRA."))
	is.Equal(b.get("/console/payouts?client="+id), http.StatusOK)
	is.True(b.has("1 payout matches"))
}
