package server_test

import "testing"

// flowLUTs records, reads and withdraws LUTs of the default user (so both
// LUT events reach the event log), and leaves one recorded for 2026-27.
func flowLUTs(t *testing.T, f *fixtures) {
	q := f.q
	first := q.do(t, call{op: "createLUT", headers: []string{"Idempotency-Key", newKey()}, want: 201}).value(t)
	id := map[string]string{"id": asStr(first["id"])}
	q.do(t, call{op: "createLUT", want: 409}) // the year already has one
	q.do(t, call{op: "createLUT", patch: map[string]any{"furnishedOn": "2099-01-01"}, want: 400})
	q.do(t, call{op: "getLUT", path: id, want: 200})
	q.do(t, call{op: "withdrawLUT", path: id, want: 200})
	q.do(t, call{op: "withdrawLUT", path: id, want: 409})
	again := q.do(t, call{op: "createLUT", want: 201}).value(t)
	q.do(t, call{op: "listLUTs", want: 200})
	q.do(t, call{op: "getLUT", path: map[string]string{"id": "lut_unknown"}, want: 404})
	f.paths["lut"] = map[string]string{"id": asStr(again["id"])}
}
