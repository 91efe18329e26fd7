package console

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/store"
)

var secretShown = regexp.MustCompile(`<code id="secret">([^<]+)</code>`)

// secret is the secret the last page shows once, or "".
func (b *browser) secret() string {
	m := secretShown.FindStringSubmatch(b.page)
	if m == nil {
		return ""
	}
	if cc := b.header.Get("Cache-Control"); cc != "no-store" {
		b.t.Errorf("a page with a secret is cacheable: Cache-Control %q", cc)
	}
	return m[1]
}

// auditActors lists the actions on a resource with who did them.
func (h *harness) auditActors(userID, resourceID string) map[string]string {
	h.t.Helper()
	rows, _, err := h.db.History().ListAudit(context.Background(), store.AuditFilter{UserID: userID, ResourceID: resourceID, Page: 1, Limit: 50})
	if err != nil {
		h.t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range rows {
		out[r.Action] = r.Actor
	}
	return out
}

var consoleActor = regexp.MustCompile(`^console:csn_\w+$`)

// TestWebhookAddRotateDelete: an endpoint added in Settings is the API's
// endpoint, its secret shown on that page only; a bad URL is refused next
// to its field with what was typed kept; rotating shows the new secret
// once and the deliveries page says how long the old one signs; deleting
// removes it. Each write is audited as the console session.
func TestWebhookAddRotateDelete(t *testing.T) {
	is := is.New(t)
	h := newHarness(t, harnessOpts{})
	u, key := h.newUser("asha@example.com", false)
	b := h.signIn(u)

	b.get("/console/settings")
	is.Equal(b.post("/console/settings/webhooks", url.Values{"url": {"ftp://hooks.example.com"}, "description": {"Books"}}), http.StatusBadRequest)
	is.True(b.errorNextTo("url") != "")
	is.True(b.has(`id="description" name="description" type="text" value="Books"`)) // as typed
	is.Equal(b.secret(), "")

	is.Equal(b.post("/console/settings/webhooks", url.Values{"url": {"http://127.0.0.1:9/payoutd"}, "description": {"Books"},
		"eventTypes": {"payout.completed", "payout.failed"}}), http.StatusSeeOther)
	is.Equal(b.location(), "/console/settings#webhooks")
	is.Equal(b.secret(), "") // not in the redirect
	b.follow()
	first := b.secret()
	is.True(strings.HasPrefix(first, "whsec_"))
	eps, err := h.db.Webhooks().ListWebhookEndpoints(context.Background(), u.ID)
	is.NoErr(err)
	is.Equal(len(eps), 1)
	id := eps[0].ID
	status, body := h.api("GET", "/api/v1/webhooks/"+id, key, "")
	is.Equal(status, http.StatusOK)
	is.True(strings.Contains(body, `"url":"http://127.0.0.1:9/payoutd"`))
	is.True(strings.Contains(body, `"eventTypes":["payout.completed","payout.failed"]`))
	is.True(!strings.Contains(body, first))
	b.get("/console/settings")
	is.True(b.has("http://127.0.0.1:9/payoutd"))
	is.True(!b.has(first)) // shown once
	is.Equal(b.secret(), "")

	is.Equal(b.post("/console/settings/webhooks/"+id+"/rotate", url.Values{}), http.StatusSeeOther)
	b.follow()
	second := b.secret()
	is.True(strings.HasPrefix(second, "whsec_") && second != first)
	is.True(b.has("the previous secret also signs for 24 hours"))
	is.Equal(b.get("/console/settings/webhooks/"+id), http.StatusOK)
	is.True(b.has("Previous secret</dt><dd>signs until "))
	is.True(!b.has(second))
	_, body = h.api("GET", "/api/v1/webhooks/"+id, key, "")
	is.True(strings.Contains(body, `"previousSecretExpiresAt"`))

	b.get("/console/settings")
	is.Equal(b.confirmed("/console/settings/webhooks/"+id+"/delete", "stops sending events to it at once"), http.StatusSeeOther)
	b.follow()
	is.True(b.has("Webhook endpoint deleted"))
	is.True(!b.has("http://127.0.0.1:9/payoutd"))
	status, _ = h.api("GET", "/api/v1/webhooks/"+id, key, "")
	is.Equal(status, http.StatusNotFound)

	actors := h.auditActors(u.ID, id)
	for _, action := range []string{"webhook.created", "webhook.secret_rotated", "webhook.deleted"} {
		if !consoleActor.MatchString(actors[action]) {
			t.Errorf("%s audited as %q, want the console session", action, actors[action])
		}
	}
}

// TestAPIKeyCreateRotateRevoke: a key made in Settings carries its label
// and scopes and works on the API, its secret shown on that page only; a
// bad label is refused next to the key form's field, not the profile's
// field of the same name; rotating shows the replacement's secret once
// while the old key works its grace period; revoking stops a key at once.
// Each write is audited as the console session.
func TestAPIKeyCreateRotateRevoke(t *testing.T) {
	is := is.New(t)
	h := newHarness(t, harnessOpts{})
	u, _ := h.newUser("asha@example.com", false)
	b := h.signIn(u)

	b.get("/console/settings")
	is.Equal(b.post("/console/settings/keys", url.Values{"name": {strings.Repeat("k", 101)}, "scopes": {"payments:read"}}), http.StatusBadRequest)
	is.Equal(b.errorNextTo("key-name"), "must be at most 100 characters")
	is.Equal(b.errorNextTo("name"), "") // the profile's Name field
	is.True(b.has(`<a href="#key-name">Name must be at most 100 characters</a>`))
	is.Equal(b.post("/console/settings/keys", url.Values{"name": {"accounting-sync"}}), http.StatusBadRequest)
	is.Equal(b.errorNextTo("scopes"), "choose at least one scope")

	is.Equal(b.post("/console/settings/keys", url.Values{"name": {"accounting-sync"}, "scopes": {"payments:read"}}), http.StatusSeeOther)
	b.follow()
	first := b.secret()
	is.True(strings.HasPrefix(first, "sk_sandbox_"))
	k, err := h.db.Keys().FindAPIKeyBySecret(context.Background(), first)
	is.NoErr(err)
	is.Equal(k.Name, "accounting-sync")
	is.Equal(k.Scopes, []string{"payments:read"})
	status, _ := h.api("GET", "/api/v1/payments", first, "")
	is.Equal(status, http.StatusOK)
	status, _ = h.api("GET", "/api/v1/profile", first, "")
	is.Equal(status, http.StatusForbidden) // only the scope ticked
	b.get("/console/settings")
	is.True(b.has("accounting-sync"))
	is.True(!b.has(first))

	is.Equal(b.post("/console/settings/keys/"+k.ID+"/rotate", url.Values{}), http.StatusSeeOther)
	b.follow()
	second := b.secret()
	is.True(strings.HasPrefix(second, "sk_sandbox_") && second != first)
	for _, secret := range []string{first, second} {
		status, _ = h.api("GET", "/api/v1/payments", secret, "")
		is.Equal(status, http.StatusOK) // the old key works 24 hours more
	}
	b.get("/console/settings")
	is.True(!b.has(second))
	is.True(b.has("rotated; works until"))

	replacement, err := h.db.Keys().FindAPIKeyBySecret(context.Background(), second)
	is.NoErr(err)
	is.Equal(b.confirmed("/console/settings/keys/"+replacement.ID+"/revoke", "Every request made with this key is refused"), http.StatusSeeOther)
	b.follow()
	is.True(b.has("API key " + replacement.ID + " revoked."))
	status, _ = h.api("GET", "/api/v1/payments", second, "")
	is.Equal(status, http.StatusUnauthorized)

	for id, actions := range map[string][]string{k.ID: {"api_key.created", "api_key.rotated"}, replacement.ID: {"api_key.created", "api_key.revoked"}} {
		actors := h.auditActors(u.ID, id)
		for _, action := range actions {
			if !consoleActor.MatchString(actors[action]) {
				t.Errorf("%s of %s audited as %q, want the console session", action, id, actors[action])
			}
		}
	}
}

// TestSettingsReloadRepeatsNothing: every Settings form that writes answers
// with a redirect, so reloading the page it lands on (as a browser's
// reload does, a GET) writes nothing again: one endpoint, one key, one
// rotation each; the secret is on that page once and in no address.
func TestSettingsReloadRepeatsNothing(t *testing.T) {
	is := is.New(t)
	h := newHarness(t, harnessOpts{})
	u, _ := h.newUser("asha@example.com", false)
	b := h.signIn(u)
	ctx := context.Background()

	submit := func(path string, form url.Values) string {
		t.Helper()
		b.get("/console/settings")
		is.Equal(b.post(path, form), http.StatusSeeOther)
		is.True(!strings.Contains(b.location(), "whsec_") && !strings.Contains(b.location(), "sk_"))
		landing := b.location()
		b.follow()
		secret := b.secret()
		for range 2 { // reload the page the form led to
			is.Equal(b.get(landing), http.StatusOK)
			is.Equal(b.secret(), "")
		}
		return secret
	}
	is.True(submit("/console/settings/webhooks", url.Values{"url": {"http://127.0.0.1:9/payoutd"}}) != "")
	eps, err := h.db.Webhooks().ListWebhookEndpoints(ctx, u.ID)
	is.NoErr(err)
	is.Equal(len(eps), 1)
	is.True(submit("/console/settings/webhooks/"+eps[0].ID+"/rotate", url.Values{}) != "")
	is.True(submit("/console/settings/keys", url.Values{"name": {"books"}, "scopes": {"payments:read"}}) != "")
	keys, err := h.db.Keys().ListAPIKeys(ctx, u.ID)
	is.NoErr(err)
	is.Equal(len(keys), 2) // the harness's and the one made here
	submit("/console/settings/keys/"+keys[0].ID+"/rotate", url.Values{})
	submit("/console/settings/profile", url.Values{"name": {"Asha Rao"}})

	count := func(action string) int {
		rows, _, err := h.db.History().ListAudit(ctx, store.AuditFilter{UserID: u.ID, Action: action, Page: 1, Limit: 50})
		is.NoErr(err)
		return len(rows)
	}
	is.Equal(count("webhook.created"), 1)
	is.Equal(count("webhook.secret_rotated"), 1)
	is.Equal(count("api_key.rotated"), 1)
	keys, err = h.db.Keys().ListAPIKeys(ctx, u.ID)
	is.NoErr(err)
	is.Equal(len(keys), 3) // + the rotation's replacement
}
