package server_test

import "testing"

// flowInvoices issues, reads, downloads and credits an invoice of the
// default user (so both invoice events reach the event log), and exports
// the month's GSTR-1.
func flowInvoices(t *testing.T, f *fixtures) {
	q, e := f.q, f.e
	if r := e.req("PATCH", "/api/v1/profile", map[string]any{"name": "Asha Rao", "address": "12 MG Road, Bengaluru 560038"}); r.Status != 200 {
		t.Fatalf("PATCH /profile: %d %s", r.Status, r.Body)
	}
	inv := q.do(t, call{op: "createInvoice", headers: []string{"Idempotency-Key", newKey()}, want: 201}).value(t)
	id := map[string]string{"id": asStr(inv["id"])}
	q.do(t, call{op: "createInvoice", patch: map[string]any{"currency": "INR"}, want: 400})
	q.do(t, call{op: "listInvoices", want: 200})
	q.do(t, call{op: "listInvoices", query: map[string]string{"page": "0"}, want: 400})
	q.do(t, call{op: "getInvoice", path: id, want: 200})
	q.do(t, call{op: "getInvoice", path: map[string]string{"id": "inv_unknown"}, want: 404})
	q.do(t, call{op: "getInvoicePdf", path: id, want: 200})
	q.do(t, call{op: "getInvoicePdf", path: map[string]string{"id": "inv_unknown"}, want: 404})
	q.do(t, call{op: "createCreditNote", path: id, headers: []string{"Idempotency-Key", newKey()}, patch: map[string]any{"date": asStr(inv["date"])}, want: 201})
	q.do(t, call{op: "createCreditNote", path: id, patch: map[string]any{"date": asStr(inv["date"]), "amount": "99999.00"}, want: 400})
	q.do(t, call{op: "createCreditNote", path: map[string]string{"id": "inv_unknown"}, want: 404})
	q.do(t, call{op: "exportGstr1", query: map[string]string{"period": asStr(inv["date"])[:7]}, want: 200})
	q.do(t, call{op: "exportGstr1", query: map[string]string{"period": "2026-13"}, want: 400})
	f.paths["invoice"] = id
}
