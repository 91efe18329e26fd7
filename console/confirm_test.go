package console

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/store"
)

var (
	confirmForm = regexp.MustCompile(`(?s)<form method="post" action="([^"]+)" class="actions">(.*?)</form>`)
	hiddenInput = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)">`)
)

// confirmed walks a destructive action as a person does: its link opens
// the confirmation page, which must say what will happen (says), and its
// button sends the page's form.
func (b *browser) confirmed(path string, says ...string) int {
	b.t.Helper()
	if b.get(path) != http.StatusOK {
		b.t.Fatalf("confirmation page %s: %d\n%s", path, b.status, b.page)
	}
	for _, s := range says {
		if !b.has(s) {
			b.t.Errorf("the confirmation page %s does not say %q", path, s)
		}
	}
	m := confirmForm.FindStringSubmatch(b.page)
	if m == nil {
		b.t.Fatalf("no confirmation form on %s:\n%s", path, b.page)
	}
	form := url.Values{}
	for _, h := range hiddenInput.FindAllStringSubmatch(m[2], -1) {
		form.Set(h[1], h[2])
	}
	return b.do("POST", m[1], form)
}

// TestDestructiveActionsAskFirst: revoke, delete, reverse and reject sent
// from anywhere but their confirmation page do nothing and lead to that
// page; its button does the deed; "keep it" leads back.
func TestDestructiveActionsAskFirst(t *testing.T) {
	is := is.New(t)
	h := newHarness(t, harnessOpts{river: true})
	u, _ := h.newUser("asha@example.com", false)
	b := h.signIn(u)
	b.get("/console/settings")
	b.post("/console/settings/keys", url.Values{"name": {"sync"}, "scopes": {"payments:read"}})
	b.follow()
	k := b.secret()
	keyRow, err := h.db.Keys().FindAPIKeyBySecret(t.Context(), k)
	is.NoErr(err)

	revoke := "/console/settings/keys/" + keyRow.ID + "/revoke"
	is.Equal(b.post(revoke, url.Values{}), http.StatusSeeOther) // the old one-click form
	is.Equal(b.location(), revoke)
	status, _ := h.api("GET", "/api/v1/payments", k, "")
	is.Equal(status, http.StatusOK) // nothing was revoked
	b.get(revoke)
	is.True(b.has(`<a href="/console/settings#keys">Keep it and go back</a>`))
	is.Equal(b.confirmed(revoke, "This cannot be undone"), http.StatusSeeOther)
	status, _ = h.api("GET", "/api/v1/payments", k, "")
	is.Equal(status, http.StatusUnauthorized)
	is.Equal(b.get(revoke), http.StatusConflict) // asking again says it is done

	// Reject keeps the reason typed on the payout's page.
	id := b.initiate("120.66", "") // .66 is held for review in the sandbox
	is.Equal(b.confirm(id, ""), http.StatusSeeOther)
	h.waitStatus(u.ID, id, store.StatusManualReview)
	b.get("/console/payouts/" + id)
	is.Equal(b.post("/console/payouts/"+id+"/review", url.Values{"decision": {"reject"}, "reason": {"client unknown"}}), http.StatusSeeOther)
	is.True(strings.HasPrefix(b.location(), "/console/payouts/"+id+"/reject?reason=client+unknown"))
	is.Equal(b.confirmed(b.location(), "It becomes FAILED (COMPLIANCE_REJECTED)", "USD 120.66"), http.StatusSeeOther)
	p := h.waitStatus(u.ID, id, store.StatusFailed)
	is.Equal(p.FailedReason, "COMPLIANCE_REJECTED: client unknown")
}
