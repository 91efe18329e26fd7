package server_test

import "testing"

// flowClients adds, reads and replaces a client, and pays it: a payout
// naming the client takes its name and country where the request gives
// none, and an id that is no client of the account is refused naming
// clientId.
func flowClients(t *testing.T, f *fixtures) {
	q := f.q
	c := q.do(t, call{op: "createClient", headers: []string{"Idempotency-Key", newKey()}, want: 201}).value(t)
	id := map[string]string{"id": asStr(c["id"])}
	q.do(t, call{op: "getClient", path: id, want: 200})
	q.do(t, call{op: "getClient", want: 404})
	updated := q.do(t, call{op: "updateClient", path: id, patch: map[string]any{"name": "Acme Corporation", "notes": nil}, want: 200}).value(t)
	if updated["name"] != "Acme Corporation" || updated["notes"] != nil {
		t.Fatalf("replaced client: %v", updated)
	}
	q.do(t, call{op: "listClients", want: 200})
	p := q.do(t, call{op: "initiatePayment", patch: map[string]any{"clientId": id["id"], "counterpartyName": nil,
		"counterpartyCountry": nil}, want: 201}).value(t)
	if p["clientId"] != id["id"] || p["counterpartyName"] != "Acme Corporation" || p["counterpartyCountry"] != "US" {
		t.Fatalf("a payout for the client: %v", p)
	}
	bad := q.do(t, call{op: "initiatePayment", patch: map[string]any{"clientId": "cli_nobody"}, want: 400})
	if bad.field(t, "clientId") == "" {
		t.Fatalf("unknown client: %s", bad.Body)
	}
}
