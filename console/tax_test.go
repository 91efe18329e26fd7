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

// rupees reads an API amount in rupees (0 too) as paise.
func rupees(t *testing.T, n json.Number) int64 {
	t.Helper()
	if strings.Trim(string(n), "0.") == "" {
		return 0
	}
	p, err := money.Parse(string(n), inrCurrency)
	if err != nil {
		t.Fatalf("amount %q: %v", n, err)
	}
	return p
}

// reserve is the user's tax reserve in paise, as GET /tax/sequestration
// reads it.
func (h *harness) reserve(userID string) int64 {
	h.t.Helper()
	a, err := h.db.Ledger().UserLedgerAccount(context.Background(), userID, store.AccountTaxReserve, "INR")
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
	id := b.initiate("80000.00", "US") // enough for tax to be due
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
	// So are the Tax page's tax, interest and balance.
	var api struct {
		EstimatedTaxDue, BalanceDue json.Number
		Interest                    struct{ Total json.Number }
	}
	is.NoErr(json.Unmarshal([]byte(body), &api))
	is.True(rupees(t, api.EstimatedTaxDue) > 0)
	b.get("/console/tax")
	is.True(b.has(`<dt>Estimated tax due</dt><dd><strong>` + inr(rupees(t, api.EstimatedTaxDue)) + `</strong></dd>`))
	is.True(b.has(`<dt>Interest on advance tax</dt><dd>` + inr(rupees(t, api.Interest.Total)) + ` if the balance is paid today`))
	is.True(b.has(`<dt>Balance due</dt><dd><strong>` + inr(rupees(t, api.BalanceDue)) + `</strong></dd>`))

	b.get("/console/tax")
	challan.Set("idempotencyKey", b.hidden("idempotencyKey"))
	is.Equal(b.post("/console/tax/payments", challan), http.StatusSeeOther)
	b.follow()
	is.True(b.has("Challan recorded."))
	is.Equal(h.reserve(u.ID), full-1000_00)
	_, body = h.api("GET", "/api/v1/tax/liability", key, "")
	is.True(strings.Contains(body, `"total":1000.00`) || strings.Contains(body, `"total":"1000.00"`))
	ps, _, err := h.db.Tax().ListTaxPayments(context.Background(), store.TaxPaymentFilter{UserID: u.ID, Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(len(ps), 1)
	reverse := "/console/tax/payments/" + ps[0].ID + "/reverse"
	is.True(b.has(`href="` + reverse + `"`))

	is.Equal(b.confirmed(reverse, "₹1,000.00 goes back into the tax reserve"), http.StatusSeeOther)
	is.Equal(b.location(), "/console/tax?fy="+fy+"#challans")
	b.follow()
	is.True(b.has("Challan 00017 reversed."))
	is.True(regexp.MustCompile(`<td data-label="State">reversed \d+ \w+ \d{4}, \d\d:\d\d IST</td>`).MatchString(b.page))
	is.True(!b.has(`href="` + reverse + `"`))
	is.Equal(h.reserve(u.ID), full)
	_, body = h.api("GET", "/api/v1/tax/payments/"+ps[0].ID, key, "")
	is.True(strings.Contains(body, `"reversedAt":"`))
	b.get("/console/")
	is.True(b.has(`<p class="figure-label">Tax paid</p><p class="figure">₹0.00</p>`))

	is.Equal(b.post(reverse, url.Values{"confirmed": {"yes"}}), http.StatusConflict)
	is.True(b.has("was already reversed"))
	is.Equal(b.get(reverse), http.StatusConflict) // nor is it asked again

	actors := h.auditActors(u.ID, ps[0].ID)
	is.Equal(len(actors), 2)
	for action, actor := range actors {
		if !consoleActor.MatchString(actor) {
			t.Errorf("%s audited as %q, want the console session", action, actor)
		}
	}
}

// TestTaxPageCitesTheYearsAct: the Tax page names each year as its Act does
// and cites that Act's sections only (the 1961 Act up to FY 2025-26, the
// 2025 Act from tax year 2026-27), as the API's figures and notes do.
func TestTaxPageCitesTheYearsAct(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	u, _ := h.newUser("asha@example.com", false)
	b := h.signIn(u)
	for _, tc := range []struct {
		fy        string
		cites     []string
		citesNot  []string
		yearLabel string
	}{
		{"2025-26", []string{"Income-tax Act, 1961", "s.44ADA", "s.87A", "s.115BAC"}, []string{"s.58(2)", "s.156", "Act, 2025"}, "Tax: FY 2025-26"},
		{"2026-27", []string{"Income-tax Act, 2025", "s.58(2) Table Sl. No. 3", "s.156", "s.202"}, []string{"44ADA", "87A", "115BAC"}, "Tax: tax year 2026-27"},
	} {
		if b.get("/console/tax?fy="+tc.fy) != http.StatusOK {
			t.Fatalf("tax %s: %d", tc.fy, b.status)
		}
		liability := b.page[strings.Index(b.page, "<h1>"):strings.Index(b.page, `id="calendar-h"`)]
		if !strings.Contains(liability, "<h1>"+tc.yearLabel+"</h1>") {
			t.Errorf("%s: no heading %q", tc.fy, tc.yearLabel)
		}
		for _, s := range tc.cites {
			if !strings.Contains(liability, s) {
				t.Errorf("%s: the liability does not cite %s", tc.fy, s)
			}
		}
		for _, s := range tc.citesNot {
			if strings.Contains(liability, s) {
				t.Errorf("%s: the liability cites %s, of the other Act", tc.fy, s)
			}
		}
	}
}
