package console

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/store"
)

var inrCurrency, _ = money.Lookup("INR")

// reserve is the user's tax reserve in paise, as GET /tax/sequestration
// reads it.
func (h *harness) reserve(userID string) int64 {
	h.t.Helper()
	a, err := h.db.UserLedgerAccount(context.Background(), userID, store.AccountTaxReserve, "INR")
	if err != nil {
		h.t.Fatal(err)
	}
	return a.Balance
}

// TestChallanRecordAndReverse: a challan paid from the reserve is refused
// next to the reserve box while the reserve is short; once a settlement has
// filled it, the challan is recorded (the reserve drawn, Home's tax paid
// and the API's liability counting it), then reversed from the Tax page:
// the reserve is whole again, the challan shows as reversed and counts no
// more, and a second reverse is refused. Both writes are audited as the
// console session.
func TestChallanRecordAndReverse(t *testing.T) {
	is := is.New(t)
	h := newHarness(t, harnessOpts{river: true})
	u, key := h.newUser("asha@example.com", false)
	status, _ := h.api("POST", "/api/v1/tax/sequestration/policy", key, `{"enabled":true,"rate":"30","trigger":"on_settlement"}`)
	is.Equal(status, http.StatusOK)
	b := h.signIn(u)
	fy := india.FYOf(time.Now()).String()
	today := time.Now().In(india.IST).Format(time.DateOnly)
	challan := url.Values{"fy": {fy}, "kind": {"advance"}, "amount": {"1000"}, "paidOn": {today},
		"bsrCode": {"0510002"}, "challanSerial": {"00017"}, "fromReserve": {"on"}}

	b.get("/console/tax")
	challan.Set("idempotencyKey", b.hidden("idempotencyKey"))
	is.Equal(b.post("/console/tax/payments", challan), http.StatusBadRequest)
	is.True(strings.HasPrefix(b.errorNextTo("fromReserve"), "the tax reserve holds INR 0.00"))
	is.True(b.has(`name="fromReserve" checked`)) // the form as typed

	status, _ = h.api("POST", "/api/v1/sandbox/kyc/approve", key, "")
	is.Equal(status, http.StatusOK)
	id := b.initiate("100.00", "US")
	is.Equal(b.confirm(id, ""), http.StatusSeeOther)
	h.waitStatus(u.ID, id, store.StatusCompleted)
	full := h.reserve(u.ID)
	is.True(full >= 1000_00)

	// Home's receipts are the API's gross receipts (once the settlement's
	// tax figures are refreshed), not a sum of its own.
	var gross int64
	var body string
	wait.For(t, 2*time.Minute, func() error {
		var liability struct {
			GrossReceipts json.Number `json:"grossReceipts"`
		}
		_, body = h.api("GET", "/api/v1/tax/liability", key, "")
		if err := json.Unmarshal([]byte(body), &liability); err != nil {
			return err
		}
		var err error
		gross, err = money.Parse(string(liability.GrossReceipts), inrCurrency) // refuses 0
		if err != nil {
			return fmt.Errorf("grossReceipts %q: %v: %s", liability.GrossReceipts, err, body)
		}
		return nil
	})
	b.get("/console/")
	is.True(b.has(`<h2 id="receipts-h">Receipts in ` + fy + `</h2>
  <p class="figure">` + inr(gross) + `</p>`))

	b.get("/console/tax")
	challan.Set("idempotencyKey", b.hidden("idempotencyKey"))
	is.Equal(b.post("/console/tax/payments", challan), http.StatusSeeOther)
	b.follow()
	is.True(b.has("Challan recorded."))
	is.Equal(h.reserve(u.ID), full-1000_00)
	_, body = h.api("GET", "/api/v1/tax/liability", key, "")
	is.True(strings.Contains(body, `"total":1000.00`) || strings.Contains(body, `"total":"1000.00"`))
	ps, _, err := h.db.ListTaxPayments(context.Background(), store.TaxPaymentFilter{UserID: u.ID, Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(len(ps), 1)
	reverse := "/console/tax/payments/" + ps[0].ID + "/reverse"
	is.True(b.has(`action="` + reverse + `"`))

	is.Equal(b.post(reverse, url.Values{}), http.StatusSeeOther)
	is.Equal(b.location(), "/console/tax?fy="+fy+"#challans")
	b.follow()
	is.True(b.has("Challan 00017 reversed."))
	is.True(regexp.MustCompile(`<td>reversed \d+ \w+ \d{4}, \d\d:\d\d IST</td>`).MatchString(b.page))
	is.True(!b.has(`action="` + reverse + `"`))
	is.Equal(h.reserve(u.ID), full)
	_, body = h.api("GET", "/api/v1/tax/payments/"+ps[0].ID, key, "")
	is.True(strings.Contains(body, `"reversedAt":"`))
	b.get("/console/")
	is.True(b.has(`<p class="figure-label">Tax paid</p><p class="figure">₹0.00</p>`))

	is.Equal(b.post(reverse, url.Values{}), http.StatusConflict)
	is.True(b.has("was already reversed"))

	actors := h.auditActors(u.ID, ps[0].ID)
	is.Equal(len(actors), 2)
	for action, actor := range actors {
		if !consoleActor.MatchString(actor) {
			t.Errorf("%s audited as %q, want the console session", action, actor)
		}
	}
}
