package console

import (
	"net/http"
	"net/url"
	"regexp"
	"testing"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/store"
)

// TestHomeWaitingForYou: Home lists what waits for the user, each with
// its action: a payout to confirm (with the link that confirms it) and a
// failed one a retry can send; a cancelled payout is never counted as
// retryable, and with nothing left the list says so.
func TestHomeWaitingForYou(t *testing.T) {
	is := is.New(t)
	h := newHarness(t, harnessOpts{river: true})
	u, _ := h.newUser("asha@example.com", false)
	b := h.signIn(u)

	b.get("/console/")
	is.True(b.has("Nothing waits for you"))
	unconfirmed := b.initiate("75.00", "")
	cancelled := b.initiate("76.00", "")
	b.get("/console/payouts/" + cancelled)
	is.Equal(b.post("/console/payouts/"+cancelled+"/cancel", url.Values{}), http.StatusSeeOther)
	failed := b.initiate("450.13", "") // .13 fails in the sandbox
	is.Equal(b.confirm(failed, ""), http.StatusSeeOther)
	h.waitStatus(u.ID, failed, store.StatusFailed)

	b.get("/console/")
	is.True(b.has(`<a href="/console/payouts/` + unconfirmed + `/confirm">Review and confirm`))
	is.True(regexp.MustCompile(`FAILED</span> 1 — failed; a retry can send it again`).MatchString(b.page))
	is.True(b.has(`<a href="/console/payouts/` + failed + `">Open and retry`))
	is.True(!b.has(cancelled))
}
