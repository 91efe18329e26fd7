package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/payoutd/payoutd/apperr"
)

// sweepInvoiceSetup issues the invoices the sweep aims at: one of the
// caller's and one of the other user's.
func sweepInvoiceSetup(t *testing.T, e *env, fx *sweepFixtures) {
	t.Helper()
	issue := func(key string) string {
		if r := e.reqAs(key, "PATCH", "/api/v1/profile", map[string]any{"name": "Sweep Supplier", "address": "1 Road, Pune"}); r.Status != http.StatusOK {
			t.Fatalf("PATCH /profile: %d %s", r.Status, r.Body)
		}
		body := map[string]any{"date": "2026-11-02", "currency": "USD", "inrRate": "83.10",
			"lines":     []map[string]any{{"description": "Work", "amount": "100.00"}},
			"recipient": map[string]any{"name": "Acme", "address": "1 Market St", "country": "US"}}
		return sweepID(t, e.reqAs(key, "POST", "/api/v1/invoices", body), http.StatusCreated)
	}
	fx.invoice, fx.otherInvoice = issue(fx.key), issue(fx.otherKey)
}

func sweepInvoiceSpecs(fx *sweepFixtures, add func(*sweepSpec)) {
	const p = "/api/v1/invoices"
	// A recipient in India is refused: the base body is never written. While
	// recipient itself is fuzzed a bad date keeps every request a refusal.
	base := sweepKVs("date", `"2026-11-02"`, "currency", `"USD"`, "inrRate", `"83.10"`,
		"lines", `[{"description":"Work","amount":"100.00"}]`, "recipient", `{"name":"A","address":"B","country":"IN"}`, "clientId", `"c"`)
	bad := func(name, k, raw string) sweepCase {
		return sweepCase{name: name, body: sweepObj(sweepWith(base, k, raw)), want: []int{400}, code: apperr.ErrValidation}
	}
	add(&sweepSpec{pattern: "POST " + p, path: p, idem: true,
		body: &sweepBody{base: base, baseWant: []int{400}, guards: map[string][]sweepKV{"recipient": sweepKVs("date", `"x"`)}},
		extra: []sweepCase{
			bad("CurrencyINR", "currency", `"INR"`), bad("DateFuture", "date", `"2999-01-01"`),
			bad("NoLines", "lines", `[]`), bad("LineAmountZero", "lines", `[{"description":"W","amount":"0"}]`),
			bad("LineSAC", "lines", `[{"description":"W","sac":"123456","amount":"1.00"}]`),
			bad("LineTooManyDecimals", "lines", `[{"description":"W","amount":"1.001"}]`),
			bad("RateZero", "inrRate", `"0"`), bad("RateText", "inrRate", `"abc"`),
			bad("DescriptionTooLong", "lines", `[{"description":`+sweepJS(strings.Repeat("d", 201))+`,"amount":"1.00"}]`),
		}})
	add(&sweepSpec{pattern: "GET " + p, path: p, query: []string{"page", "limit"}})
	add(&sweepSpec{pattern: "GET " + p + "/{id}", tmpl: p + "/{id}", own: fx.invoice, other: fx.otherInvoice})
	add(&sweepSpec{pattern: "GET " + p + "/{id}/pdf", tmpl: p + "/{id}/pdf", own: fx.invoice, other: fx.otherInvoice})
	// More than the invoice holds is refused, never written.
	cn := sweepKVs("date", `"2026-11-02"`, "amount", `"99999.00"`, "reason", `"r"`)
	add(&sweepSpec{pattern: "POST " + p + "/{id}/credit-notes", tmpl: p + "/{id}/credit-notes", own: fx.invoice, other: fx.otherInvoice, idem: true,
		paramBody: sweepObj(cn),
		body:      &sweepBody{base: cn, baseWant: []int{400}, guards: map[string][]sweepKV{"amount": sweepKVs("reason", `""`)}},
		extra: []sweepCase{
			{name: "AmountThreeDecimals", body: sweepObj(sweepWith(cn, "amount", `"1.001"`)), want: []int{400}, code: apperr.ErrValidation},
			{name: "BeforeTheInvoice", body: sweepObj(sweepWith(sweepWith(cn, "amount", `"1.00"`), "date", `"2026-11-01"`)), want: []int{400}, code: apperr.ErrValidation},
		}})
	const g = "/api/v1/tax/exports/gstr1"
	add(&sweepSpec{pattern: "GET " + g, path: g + "?period=2026-11", query: []string{"period"},
		extra: []sweepCase{{name: "Quarter", path: g + "?period=2026-Q4", want: []int{200}}, {name: "Q5", path: g + "?period=2026-Q5", want: []int{400}},
			{name: "NoPeriod", path: g, want: []int{400}}}})
}
