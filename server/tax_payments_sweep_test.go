package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/payoutd/payoutd/apperr"
)

// sweepTaxPaymentSetup records the tax payments the sweep aims at: one of
// the caller's, one reversed, and one of the other user's. The caller has no
// tax reserve, so a valid body drawing on it is refused.
func sweepTaxPaymentSetup(t *testing.T, e *env, fx *sweepFixtures) {
	t.Helper()
	post := func(key, serial string) string {
		return sweepID(t, e.reqAs(key, "POST", "/api/v1/tax/payments", challan("2025-26", "advance", "100.00", "2026-03-10", serial, false)), http.StatusCreated)
	}
	fx.taxPay = post(fx.key, "10001")
	fx.reversedTaxPay = post(fx.key, "10002")
	if r := e.reqAs(fx.key, "DELETE", "/api/v1/tax/payments/"+fx.reversedTaxPay, nil); r.Status != http.StatusOK {
		t.Fatalf("reverse: %d %s", r.Status, r.Body)
	}
	fx.otherTaxPay = post(fx.otherKey, "10003")
}

func sweepTaxPaymentSpecs(fx *sweepFixtures, add func(*sweepSpec), pagingStrict, fyStrict func(string) []sweepCase) {
	const p = "/api/v1/tax/payments"
	base := sweepKVs("fy", `"2025-26"`, "kind", `"advance"`, "amount", `"1.00"`, "paidOn", `"2026-03-10"`, "bsrCode", `"0510002"`,
		"challanSerial", `"99999"`, "fromReserve", "true", "note", `"n"`)
	bad := func(name, k, raw string) sweepCase {
		return sweepCase{name: name, body: sweepObj(sweepWith(base, k, raw)), want: []int{400}, code: apperr.ErrValidation}
	}
	add(&sweepSpec{pattern: "POST " + p, path: p, idem: true,
		// The caller has no tax reserve: a valid body drawing on it is a 400
		// inside the transaction. While fromReserve itself is fuzzed a bad
		// BSR code keeps every request a refusal.
		body: &sweepBody{base: base, baseWant: []int{400}, guards: map[string][]sweepKV{"fromReserve": sweepKVs("bsrCode", `"x"`)}},
		extra: []sweepCase{
			{name: "ReserveEmpty", body: sweepObj(base), want: []int{400}, code: apperr.ErrInsufficientFunds},
			{name: "SameChallanAgain", body: sweepObj(sweepWith(sweepWith(base, "challanSerial", `"10001"`), "fromReserve", "false")),
				want: []int{409}, code: apperr.ErrConflict},
			bad("AmountThreeDecimals", "amount", `"1.001"`), bad("AmountNumberThreeDecimals", "amount", "1.001"),
			bad("AmountOverCap", "amount", `"1000000000000.01"`), bad("AmountWithPaise", "amount", `"30000.50"`), bad("AmountLeadingPlus", "amount", `"+1.00"`),
			bad("BSRCodeSpaced", "bsrCode", `"051 0002"`), bad("BSRCodeFullWidth", "bsrCode", `"０５１０００２"`),
			bad("SerialNumber", "challanSerial", "99999"), bad("KindUpperCase", "kind", `"ADVANCE"`),
			bad("PaidOnFarFuture", "paidOn", `"2999-01-01"`), bad("PaidOnTimestamp", "paidOn", `"2026-03-10T00:00:00Z"`),
			bad("SelfAssessmentInYear", "kind", `"self_assessment"`), bad("FYUnsupported", "fy", `"2019-20"`),
			bad("NoteTooLong", "note", sweepJS(strings.Repeat("n", 513))),
		}})
	add(&sweepSpec{pattern: "GET " + p, path: p, query: []string{"fy", "page", "limit", "after"},
		extra: append(append(pagingStrict(p), fyStrict(p)...),
			sweepCase{name: "Strict_fy_year", path: p + "?fy=2025-26", want: []int{200}, sub: `"total":2`})})
	add(&sweepSpec{pattern: "GET " + p + "/{id}", tmpl: p + "/{id}", own: fx.taxPay, other: fx.otherTaxPay})
	// DELETE is aimed at the other user's payment, so its generic cases can
	// never reverse anything.
	add(&sweepSpec{pattern: "DELETE " + p + "/{id}", tmpl: p + "/{id}", own: fx.otherTaxPay, other: fx.otherTaxPay, okWant: []int{404},
		extra: []sweepCase{{name: "OwnReversedAgain", path: p + "/" + fx.reversedTaxPay, want: []int{409}, code: apperr.ErrInvalidState}}})
}
