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

// TestPayoutWords: a payout's page says what happened to its money in
// words that fit its state: an unconfirmed payout is "To send", a
// cancelled or failed one "Not sent" with no FIRA promised, a completed
// one "Sent". Cancel in the console ends an unconfirmed payout as the API
// does, audited as the session.
func TestPayoutWords(t *testing.T) {
	is := is.New(t)
	h := newHarness(t, harnessOpts{river: true})
	u, key := h.newUser("asha@example.com", false)
	status, _ := h.api("POST", "/api/v1/sandbox/kyc/approve", key, "")
	is.Equal(status, http.StatusOK)
	b := h.signIn(u)

	unconfirmed := b.initiate("450.13", "US")
	b.get("/console/payouts/" + unconfirmed)
	is.True(b.has("<dt>To send</dt>"))
	is.True(b.has("Not confirmed: nothing has moved yet."))
	is.True(!b.has("<dt>Sent</dt>"))

	is.Equal(b.post("/console/payouts/"+unconfirmed+"/cancel", url.Values{}), http.StatusSeeOther)
	b.follow()
	is.True(b.has("Payout cancelled: nothing was sent."))
	is.True(b.has("<dt>Not sent</dt>"))
	is.True(b.has("No FIRA: this payout was cancelled"))
	is.True(!b.has("A FIRA is generated"))
	is.True(!b.has("CANCELLED: cancelled before"))             // the API's code, not words
	is.True(!b.has(`action="/console/payouts/` + unconfirmed)) // nothing left to do
	is.True(consoleActor.MatchString(h.auditActors(u.ID, unconfirmed)["payment.failed"]))

	failed := b.initiate("450.13", "US") // .13 fails in the sandbox
	is.Equal(b.confirm(failed, ""), http.StatusSeeOther)
	h.waitStatus(u.ID, failed, store.StatusFailed)
	b.get("/console/payouts/" + failed)
	is.True(b.has("<dt>Not sent</dt>"))
	is.True(b.has("No FIRA: this payout failed"))

	done := b.initiate("450.00", "US")
	is.Equal(b.confirm(done, ""), http.StatusSeeOther)
	h.waitStatus(u.ID, done, store.StatusCompleted)
	b.get("/console/payouts/" + done)
	is.True(b.has("<dt>Sent</dt>"))
}

// TestErrorWords: the error summary never says a field's name twice
// ("Vault vault …", "GSTIN invalid GSTIN …"), and an empty amount is asked
// for in the form's terms, not the API's two ways of sending one.
func TestErrorWords(t *testing.T) {
	for _, c := range []struct{ label, msg, want string }{
		{"Vault", "vault vlt_1 has insufficient available balance", "Vault vlt_1 has insufficient available balance"},
		{"GSTIN", "invalid GSTIN: bad check digit", "Invalid GSTIN: bad check digit"},
		{"Amount", "must be greater than 0", "Amount must be greater than 0"},
	} {
		if got := summaryLine(c.label, c.msg); got != c.want {
			t.Errorf("summaryLine(%q, %q) = %q, want %q", c.label, c.msg, got, c.want)
		}
	}
	is := is.New(t)
	h := newHarness(t, harnessOpts{})
	u, _ := h.newUser("asha@example.com", false)
	b := h.signIn(u)
	b.get("/console/payouts/new")
	b.follow()
	is.Equal(b.post("/console/payouts/new", url.Values{"idempotencyKey": {b.hidden("idempotencyKey")}, "currency": {"USD"},
		"destinationAddress": {testAddress}}), http.StatusBadRequest)
	is.Equal(b.errorNextTo("amount"), "is required: enter the amount in the currency&#39;s units, like 250.00")
	is.True(!b.has("amountMinor"))
	b.get("/console/settings")
	is.Equal(b.post("/console/settings/profile", url.Values{"name": {"Asha Rao"}, "gstin": {"27ABCDE1234F1Z0"}}), http.StatusBadRequest)
	is.True(regexp.MustCompile(`<li><a href="#gstin">Invalid GSTIN: [^<]+</a></li>`).MatchString(summaryOf(b.page)))
}

// summaryOf is a page's error summary.
func summaryOf(page string) string {
	i := strings.Index(page, `class="error-summary"`)
	if i < 0 {
		return ""
	}
	return page[i : i+strings.Index(page[i:], "</div>")]
}

// TestLayoutLandmarks: the sandbox banner is inside the page's banner
// landmark (the header); Home's receipts by month say each month's amount
// as text, not in a tooltip; the challan form sends the browser back to
// itself, so a refused challan's summary is on screen, not far below.
func TestLayoutLandmarks(t *testing.T) {
	is := is.New(t)
	h := newHarness(t, harnessOpts{})
	u, _ := h.newUser("asha@example.com", false)
	b := h.signIn(u)
	b.get("/console/")
	header := b.page[strings.Index(b.page, "<header"):strings.Index(b.page, "</header>")]
	is.True(strings.Contains(header, `class="banner banner-sandbox"`))
	is.Equal(strings.Count(b.page, `<span class="bar-value">₹0.00</span>`), 12)
	is.Equal(strings.Count(b.page, "<title>"), 1) // the page's; no value hidden in an SVG tooltip
	b.get("/console/tax")
	is.True(b.has(`action="/console/tax/payments#record-h"`))
	is.True(b.has(`id="record-h" tabindex="-1"`))
}
