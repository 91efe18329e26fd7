package console

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/matryer/is"

	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/store"
)

// initiate fills in New payout and continues; it returns the payout's id
// from the confirmation step it lands on.
func (b *browser) initiate(amount, country string) string {
	b.t.Helper()
	b.get("/console/payouts/new?key=" + uuid.NewString())
	form := url.Values{"idempotencyKey": {b.hidden("idempotencyKey")}, "amount": {amount}, "currency": {"USD"},
		"destinationAddress": {testAddress}, "counterpartyCountry": {country}}
	if country != "" {
		form.Set("counterpartyName", "Acme Inc")
		form.Set("purposeCode", "P0802")
		form.Set("invoiceRef", "INV-"+amount) // reconciliation matches the receipt to it
	}
	b.post("/console/payouts/new", form)
	loc := b.location()
	if b.status != http.StatusSeeOther || !strings.HasSuffix(loc, "/confirm") {
		b.t.Fatalf("initiate: %d to %q\n%s", b.status, loc, b.page)
	}
	return strings.TrimSuffix(strings.TrimPrefix(loc, "/console/payouts/"), "/confirm")
}

// confirm presses Confirm on a payout's confirmation step, from vault (""
// is the vault the page offers first).
func (b *browser) confirm(id, vault string) int {
	b.t.Helper()
	b.get("/console/payouts/" + id + "/confirm")
	if vault == "" {
		vault = b.hidden("vaultId")
	}
	return b.post("/console/payouts/"+id+"/confirm", url.Values{"idempotencyKey": {b.hidden("idempotencyKey")}, "vaultId": {vault}})
}

// waitStatus waits until the user's payout is in status.
func (h *harness) waitStatus(userID, id, status string) store.Payment {
	h.t.Helper()
	var p store.Payment
	wait.For(h.t, 2*time.Minute, func() (err error) {
		if p, err = h.db.Payments().FindPayment(context.Background(), userID, id); err != nil {
			return err
		}
		if p.Status != status {
			return fmt.Errorf("payout %s is %s, not %s", id, p.Status, status)
		}
		return nil
	})
	return p
}

// TestAnotherUsersIDsAreNotFound: a session that names another user's
// payout, FIRA, challan, webhook endpoint, API key or vault, on any page or
// in any form, gets Not found (or, for a vault in its own payout's form,
// the form back), sees nothing of the owner's, and changes nothing; the
// owner's own session changes nothing either when a form comes without its
// CSRF token, and with it can do each of those things.
func TestAnotherUsersIDsAreNotFound(t *testing.T) {
	is := is.New(t)
	h := newHarness(t, harnessOpts{river: true})
	ctx := context.Background()
	asha, ashaKey := h.newUser("asha@example.com", false)
	status, _ := h.api("POST", "/api/v1/sandbox/kyc/approve", ashaKey, "")
	is.Equal(status, http.StatusOK)
	a := h.signIn(asha)

	completed := a.initiate("10.00", "US")
	is.Equal(a.confirm(completed, ""), http.StatusSeeOther)
	failed := a.initiate("10.13", "")
	is.Equal(a.confirm(failed, ""), http.StatusSeeOther)
	review := a.initiate("10.66", "")
	is.Equal(a.confirm(review, ""), http.StatusSeeOther)
	initiated := a.initiate("10.00", "")
	h.waitStatus(asha.ID, completed, store.StatusCompleted)
	h.waitStatus(asha.ID, failed, store.StatusFailed)
	h.waitStatus(asha.ID, review, store.StatusManualReview)
	firas, _, err := h.db.Tax().ListFIRAs(ctx, store.FIRAFilter{UserID: asha.ID, PaymentID: completed, Page: 1, Limit: 1})
	is.NoErr(err)
	is.Equal(len(firas), 1)
	fira := firas[0].ID

	a.get("/console/tax")
	a.post("/console/tax/payments", url.Values{"idempotencyKey": {a.hidden("idempotencyKey")}, "fy": {a.hidden("fy")},
		"kind": {"advance"}, "amount": {"1000"}, "paidOn": {time.Now().Format(time.DateOnly)}, "bsrCode": {"0510002"}, "challanSerial": {"00017"}})
	is.Equal(a.status, http.StatusSeeOther)
	challans, _, err := h.db.Tax().ListTaxPayments(ctx, store.TaxPaymentFilter{UserID: asha.ID, Page: 1, Limit: 10})
	is.NoErr(err)
	challan := challans[0].ID
	a.get("/console/settings")
	a.post("/console/settings/webhooks", url.Values{"url": {"http://127.0.0.1:9/payoutd"}})
	is.Equal(a.status, http.StatusSeeOther)
	endpoints, err := h.db.Webhooks().ListWebhookEndpoints(ctx, asha.ID)
	is.NoErr(err)
	endpoint := endpoints[0].ID
	keys, err := h.db.Keys().ListAPIKeys(ctx, asha.ID)
	is.NoErr(err)
	key := keys[0].ID
	vaults, err := h.db.Vaults().ListVaults(ctx, asha.ID)
	is.NoErr(err)
	vault := vaults[0]

	ravi, _ := h.newUser("ravi@example.com", false)
	r := h.signIn(ravi)
	r.get("/console/")
	ashas := []string{completed, failed, review, initiated, fira, challan, endpoint, key, vault.ID, "asha@example.com"}
	sees := func(what string) {
		t.Helper()
		for _, id := range ashas {
			if r.has(id) {
				t.Errorf("%s shows Asha's %s", what, id)
			}
		}
	}
	for _, path := range []string{"/console/", "/console/payouts", "/console/payouts?status=FAILED", "/console/firas",
		"/console/tax", "/console/settings", "/console/payouts/new?key=3f0c8a52-8a51-4c3e-9a0e-2f1d7c9b6a01"} {
		is.Equal(r.get(path), http.StatusOK)
		sees(path)
	}
	for _, path := range []string{"/console/payouts/" + completed, "/console/payouts/" + initiated + "/confirm",
		"/console/firas/" + fira, "/console/firas/" + fira + "/pdf", "/console/settings/webhooks/" + endpoint,
		"/console/settings/webhooks/" + endpoint + "/delete", "/console/settings/keys/" + key + "/revoke",
		"/console/tax/payments/" + challan + "/reverse", "/console/payouts/" + review + "/reject", "/console/vaults/" + vault.ID} {
		if r.get(path) != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, r.status)
		}
		sees(path)
	}
	for _, f := range []struct {
		path string
		form url.Values
	}{
		{"/console/payouts/" + initiated + "/confirm", url.Values{"idempotencyKey": {"0b6f1f0e-6a4c-4c43-9b55-0d8e3c6e8a11"}, "vaultId": {vault.ID}}},
		{"/console/payouts/" + failed + "/retry", url.Values{}},
		{"/console/payouts/" + review + "/review", url.Values{"decision": {"approve"}}},
		{"/console/tax/payments/" + challan + "/reverse", url.Values{"confirmed": {"yes"}}},
		{"/console/settings/webhooks/" + endpoint + "/rotate", url.Values{}},
		{"/console/settings/webhooks/" + endpoint + "/delete", url.Values{"confirmed": {"yes"}}},
		{"/console/settings/keys/" + key + "/rotate", url.Values{}},
		{"/console/settings/keys/" + key + "/revoke", url.Values{"confirmed": {"yes"}}},
	} {
		if r.post(f.path, f.form) != http.StatusNotFound {
			t.Errorf("POST %s: %d, want 404\n%s", f.path, r.status, r.page)
		}
		sees("POST " + f.path)
	}
	// Asha's vault in the form of Ravi's own payout: refused next to the
	// field, as a vault that does not exist.
	own := r.initiate("5.00", "")
	is.Equal(r.confirm(own, vault.ID), http.StatusBadRequest)
	is.True(strings.Contains(r.page, "not found"))
	sees("confirm from Asha's vault")
	h.waitStatus(ravi.ID, own, store.StatusInitiated)

	// Nor does Asha's own session without its CSRF token, on any form.
	for _, path := range []string{"/console/payouts/new", "/console/payouts/" + initiated + "/confirm",
		"/console/payouts/" + failed + "/retry", "/console/payouts/" + review + "/review", "/console/tax/payments",
		"/console/tax/payments/" + challan + "/reverse", "/console/settings/profile", "/console/settings/kyc",
		"/console/settings/webhooks", "/console/settings/webhooks/" + endpoint + "/rotate",
		"/console/settings/webhooks/" + endpoint + "/delete", "/console/settings/keys",
		"/console/settings/keys/" + key + "/rotate", "/console/settings/keys/" + key + "/revoke", "/console/signout"} {
		form := url.Values{"idempotencyKey": {"0b6f1f0e-6a4c-4c43-9b55-0d8e3c6e8a12"}, "vaultId": {vault.ID}, "decision": {"approve"},
			"amount": {"10.00"}, "currency": {"USD"}, "destinationAddress": {testAddress}, "name": {"Forged"}, "url": {"http://127.0.0.1:9/x"},
			"fy": {india.FYOf(time.Now()).String()}, "kind": {"advance"}, "paidOn": {time.Now().Format(time.DateOnly)}, "bsrCode": {"0510002"}, "challanSerial": {"00099"}}
		if a.forge(path, form) != http.StatusForbidden {
			t.Errorf("POST %s without the CSRF token: %d, want 403", path, a.status)
		}
	}
	a.get("/console/")
	is.Equal(a.status, http.StatusOK) // still signed in: the forged sign-out did nothing
	profile, err := h.db.People().FindProfile(ctx, asha.ID)
	is.NoErr(err)
	is.True(profile.Name != "Forged")
	_, total, err := h.db.Payments().ListPayments(ctx, store.PaymentFilter{UserID: asha.ID, Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(total, 4) // no payout from the forged form
	eps, err := h.db.Webhooks().ListWebhookEndpoints(ctx, asha.ID)
	is.NoErr(err)
	is.Equal(len(eps), 1)
	ks, err := h.db.Keys().ListAPIKeys(ctx, asha.ID)
	is.NoErr(err)
	is.Equal(len(ks), 1)
	cs, _, err := h.db.Tax().ListTaxPayments(ctx, store.TaxPaymentFilter{UserID: asha.ID, Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(len(cs), 1)

	// Nothing of Asha's changed ...
	h.waitStatus(asha.ID, initiated, store.StatusInitiated)
	h.waitStatus(asha.ID, failed, store.StatusFailed)
	h.waitStatus(asha.ID, review, store.StatusManualReview)
	after, err := h.db.Tax().FindTaxPayment(ctx, asha.ID, challan)
	is.NoErr(err)
	is.Equal(after.ReversedAt, nil)
	ep, err := h.db.Webhooks().FindWebhookEndpoint(ctx, asha.ID, endpoint)
	is.NoErr(err)
	is.Equal(ep.GraceUntil, nil) // never rotated
	k, err := h.db.Keys().FindAPIKey(ctx, key)
	is.NoErr(err)
	is.True(k.RevokedAt == nil && k.ReplacedBy == "")
	v, err := h.db.Vaults().FindVault(ctx, asha.ID, vault.ID)
	is.NoErr(err)
	is.Equal(v.Reserved, vault.Reserved)

	// ... and Asha can do each of those things herself.
	a.get("/console/payouts/" + failed)
	is.Equal(a.post("/console/payouts/"+failed+"/retry", url.Values{}), http.StatusSeeOther)
	a.get("/console/payouts/" + review)
	long := strings.Repeat("r", 513)
	is.Equal(a.post("/console/payouts/"+review+"/review", url.Values{"decision": {"reject"}, "reason": {long}}), http.StatusBadRequest)
	is.True(a.errorNextTo("reason") != "") // next to the field, what was typed kept
	is.True(a.has(`value="` + long + `"`))
	is.Equal(a.post("/console/payouts/"+review+"/review", url.Values{"decision": {"reject"}, "reason": {"not my client"}}), http.StatusSeeOther)
	is.Equal(a.confirmed(a.location(), "not my client"), http.StatusSeeOther)
	h.waitStatus(asha.ID, review, store.StatusFailed)
	is.Equal(a.get("/console/firas/"+fira+"/pdf"), http.StatusOK)
	is.True(strings.HasPrefix(a.page, "%PDF-"))
	is.Equal(a.get("/console/settings/webhooks/"+endpoint), http.StatusOK)
	is.Equal(a.get("/console/firas"), http.StatusOK)
	is.True(a.has(fira))
	is.Equal(a.get("/console/firas/"+fira), http.StatusOK)
}
