package server_test

import (
	"net/http"
	"testing"

	"github.com/payoutd/payoutd/apperr"
)

// sweepLUTSetup records the LUTs the sweep aims at: one of the caller's for
// 2026-27, one withdrawn (2025-26), and one of the other user's.
func sweepLUTSetup(t *testing.T, e *env, fx *sweepFixtures) {
	t.Helper()
	post := func(key, fy, on string) string {
		return sweepID(t, e.reqAs(key, "POST", "/api/v1/tax/luts", map[string]any{"arn": "AD2708260001234", "fy": fy, "furnishedOn": on}), http.StatusCreated)
	}
	fx.lut = post(fx.key, "2026-27", "2026-04-01")
	fx.withdrawnLUT = post(fx.key, "2025-26", "2025-04-01")
	if r := e.reqAs(fx.key, "DELETE", "/api/v1/tax/luts/"+fx.withdrawnLUT, nil); r.Status != http.StatusOK {
		t.Fatalf("withdraw: %d %s", r.Status, r.Body)
	}
	fx.otherLUT = post(fx.otherKey, "2026-27", "2026-04-01")
}

func sweepLUTSpecs(fx *sweepFixtures, add func(*sweepSpec)) {
	const p = "/api/v1/tax/luts"
	// 2026-27 already has the caller's LUT: a valid body is a 409, never
	// written. While fy itself is fuzzed a bad ARN keeps every request a
	// refusal.
	base := sweepKVs("arn", `"AD2708260001234"`, "fy", `"2026-27"`, "furnishedOn", `"2026-04-02"`)
	bad := func(name, k, raw string) sweepCase {
		return sweepCase{name: name, body: sweepObj(sweepWith(base, k, raw)), want: []int{400}, code: apperr.ErrValidation}
	}
	add(&sweepSpec{pattern: "POST " + p, path: p, idem: true,
		body: &sweepBody{base: base, baseWant: []int{409}, guards: map[string][]sweepKV{"fy": sweepKVs("arn", `"x"`)}},
		extra: []sweepCase{
			{name: "SecondForTheYear", body: sweepObj(base), want: []int{409}, code: apperr.ErrConflict},
			bad("ARNShort", "arn", `"AD27082600012"`), bad("ARNLowerCase", "arn", `"ad2708260001234"`), bad("ARNNumber", "arn", "1234"),
			bad("FurnishedFuture", "furnishedOn", `"2999-01-01"`), {name: "FurnishedAfterItsYear", body: sweepObj(sweepWith(base, "fy", `"2025-26"`)), want: []int{400}, code: apperr.ErrValidation},
			bad("FurnishedTimestamp", "furnishedOn", `"2026-04-02T00:00:00Z"`), bad("FYUnsupported", "fy", `"2019-20"`),
		}})
	add(&sweepSpec{pattern: "GET " + p, path: p})
	add(&sweepSpec{pattern: "GET " + p + "/{id}", tmpl: p + "/{id}", own: fx.lut, other: fx.otherLUT})
	// DELETE is aimed at the other user's LUT, so its generic cases can
	// never withdraw anything.
	add(&sweepSpec{pattern: "DELETE " + p + "/{id}", tmpl: p + "/{id}", own: fx.otherLUT, other: fx.otherLUT, okWant: []int{404},
		extra: []sweepCase{{name: "OwnWithdrawnAgain", path: p + "/" + fx.withdrawnLUT, want: []int{409}, code: apperr.ErrInvalidState}}})
}
