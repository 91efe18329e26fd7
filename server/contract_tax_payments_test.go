package server_test

import "testing"

// flowTaxPayments records, reads and reverses challans of the default user
// (so both tax payment events reach the event log and the webhook target),
// and reads the liability and the ITR-4 of the year with taxes paid in them.
func flowTaxPayments(t *testing.T, f *fixtures) {
	q := f.q
	p := q.do(t, call{op: "createTaxPayment", headers: []string{"Idempotency-Key", newKey()}, want: 201}).value(t)
	id := map[string]string{"id": asStr(p["id"])}
	q.do(t, call{op: "createTaxPayment", want: 409}) // the same challan again
	// More than the tax reserve holds.
	q.do(t, call{op: "createTaxPayment", patch: map[string]any{"challanSerial": "20663", "fromReserve": true, "amount": "99999999.00"}, want: 400})
	// Self-assessment tax dated inside the year it is for.
	q.do(t, call{op: "createTaxPayment", patch: map[string]any{"challanSerial": "20664", "kind": "self_assessment"}, want: 400})
	wrong := q.do(t, call{op: "createTaxPayment", patch: map[string]any{"challanSerial": "20665", "amount": "100.00"}, want: 201}).value(t)
	wid := map[string]string{"id": asStr(wrong["id"])}
	q.do(t, call{op: "reverseTaxPayment", path: wid, want: 200})
	q.do(t, call{op: "reverseTaxPayment", path: wid, want: 409})
	q.do(t, call{op: "getTaxPayment", path: id, want: 200})
	q.do(t, call{op: "getTaxPayment", path: wid, want: 200})
	q.do(t, call{op: "listTaxPayments", want: 200})
	q.do(t, call{op: "listTaxPayments", noQuery: true, want: 200})
	for _, op := range []string{"getTaxLiability", "exportItr4", "exportItr4Prefill"} {
		q.do(t, call{op: op, query: map[string]string{"fy": "2025-26"}, want: 200})
	}
	f.paths["taxPayment"] = id
}
