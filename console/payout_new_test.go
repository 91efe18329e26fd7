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

// TestNewPayoutBackAndResubmit: New payout's form key is in its address,
// so Back to the form after sending it shows the payout it made, not a
// form that would make a second; sending the same form again leads to the
// same payout; the same key with a changed amount makes nothing and says
// so, keeping what was typed under a fresh key, so sending it then is a
// deliberate second payout.
func TestNewPayoutBackAndResubmit(t *testing.T) {
	is := is.New(t)
	h := newHarness(t, harnessOpts{})
	u, _ := h.newUser("asha@example.com", false)
	b := h.signIn(u)
	ctx := context.Background()
	count := func() int {
		_, n, err := h.db.Payments().ListPayments(ctx, store.PaymentFilter{UserID: u.ID, Page: 1, Limit: 1})
		is.NoErr(err)
		return n
	}

	is.Equal(b.get("/console/payouts/new"), http.StatusSeeOther)
	formURL := b.location()
	is.True(strings.HasPrefix(formURL, "/console/payouts/new?key="))
	b.follow()
	key := b.hidden("idempotencyKey")
	is.Equal(formURL, "/console/payouts/new?key="+key)
	form := url.Values{"idempotencyKey": {key}, "amount": {"450.00"}, "currency": {"USD"}, "destinationAddress": {testAddress}}
	is.Equal(b.post("/console/payouts/new", form), http.StatusSeeOther)
	first := b.location()

	is.Equal(b.get(formURL), http.StatusOK) // Back
	is.True(b.has("You already sent this form"))
	is.True(b.has(`href="` + strings.TrimSuffix(first, "/confirm")))
	is.True(!b.has(`name="idempotencyKey"`))

	is.Equal(b.post("/console/payouts/new", form), http.StatusSeeOther) // resubmit
	is.Equal(b.location(), first)
	is.Equal(count(), 1)

	form.Set("amount", "540.00")
	b.get(formURL)
	is.Equal(b.post("/console/payouts/new", form), http.StatusConflict)
	is.True(b.has("already sent as payout " + payoutOf(first) + " with other details"))
	is.True(b.has(`value="540.00"`))
	is.Equal(count(), 1)
	fresh := b.hidden("idempotencyKey")
	is.True(fresh != key)
	form.Set("idempotencyKey", fresh)
	is.Equal(b.post("/console/payouts/new", form), http.StatusSeeOther)
	is.True(b.location() != first)
	is.Equal(count(), 2)
}

// TestCrossBorderNeedsClientName: a payout to a client abroad without the
// client's name is refused next to Client name, as the API refuses it, and
// nothing is made: its FIRA would name no remitter.
func TestCrossBorderNeedsClientName(t *testing.T) {
	is := is.New(t)
	h := newHarness(t, harnessOpts{})
	u, key := h.newUser("asha@example.com", false)
	status, _ := h.api("POST", "/api/v1/sandbox/kyc/approve", key, "")
	is.Equal(status, http.StatusOK)
	b := h.signIn(u)
	b.get("/console/payouts/new")
	b.follow()
	form := url.Values{"idempotencyKey": {b.hidden("idempotencyKey")}, "amount": {"450.00"}, "currency": {"USD"},
		"destinationAddress": {testAddress}, "counterpartyCountry": {"US"}}
	is.Equal(b.post("/console/payouts/new", form), http.StatusBadRequest)
	is.True(strings.Contains(b.errorNextTo("counterpartyName"), "required for a cross-border payout"))
	_, n, err := h.db.Payments().ListPayments(context.Background(), store.PaymentFilter{UserID: u.ID, Page: 1, Limit: 1})
	is.NoErr(err)
	is.Equal(n, 0)
	form.Set("counterpartyName", "Acme Inc")
	is.Equal(b.post("/console/payouts/new", form), http.StatusSeeOther)
}
