package console

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/payoutd/payoutd/india"
)

// TestTaxPageGSTR1AndRealisation: the Tax page downloads each month's
// GSTR-1 beside its GSTR-3B, and the Tax page and Home list a LUT invoice
// rule 96A is watching (unpaid, 30 days before one year from its date)
// with its IGST and interest.
func TestTaxPageGSTR1AndRealisation(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	u, key := h.newUser("asha@example.com", false)
	now := time.Now().In(india.IST)
	date := now.AddDate(-1, 0, 30).Format(time.DateOnly) // watched from today
	fy := india.FYOf(now.AddDate(-1, 0, 30))
	for _, call := range []struct{ method, path, body string }{
		{"PATCH", "/api/v1/profile", `{"name":"Asha Rao","address":"12 MG Road, Pune","pan":"ABCPR1234K","gstin":"` + testGSTIN(t) + `","gstRegisteredFrom":"2024-04-01"}`},
		{"POST", "/api/v1/tax/luts", `{"arn":"AD2704250001234","fy":"` + fy.String() + `","furnishedOn":"` + india.DateOf(fy.Start()) + `"}`},
		{"POST", "/api/v1/invoices", `{"date":"` + date + `","currency":"USD","inrRate":"83.10","lines":[{"description":"Work","amount":"100.00"}],` +
			`"recipient":{"name":"Acme","address":"1 Market St","country":"US"}}`},
	} {
		if st, body := h.api(call.method, call.path, key, call.body); st >= 300 {
			t.Fatalf("%s %s: %d %s", call.method, call.path, st, body)
		}
	}
	b := h.signIn(u)
	if b.get("/console/tax?fy="+fy.String()) != http.StatusOK {
		t.Fatalf("tax: %d", b.status)
	}
	// USD 100.00 at ₹83.10: ₹8,310.00 taxable, IGST ₹1,495.80.
	for _, want := range []string{"LUT invoices not yet paid", "INV/", "IGST of ₹1,495.80", "/console/tax/gstr1?period="} {
		if !strings.Contains(b.page, want) {
			t.Errorf("the Tax page lacks %q", want)
		}
	}
	if b.get("/console/") != http.StatusOK || !strings.Contains(b.page, "IGST of ₹1,495.80") {
		t.Errorf("Home does not flag the invoice: %d", b.status)
	}
	if b.get("/console/tax/gstr1?period="+date[:7]) != http.StatusOK {
		t.Fatalf("gstr1: %d", b.status)
	}
	if !strings.Contains(b.page, `"exp_typ": "WOPAY"`) || !strings.Contains(b.page, `"agreesWithGstr3b": true`) {
		t.Errorf("GSTR-1 download: %s", b.page)
	}
}
