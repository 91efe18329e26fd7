package server_test

import (
	"context"
	"testing"
	"time"

	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/jobs"
	"github.com/payoutd/payoutd/store"
)

// flowInvoices issues, reads, downloads and credits an invoice of the
// default user (so both invoice events reach the event log), and exports
// the month's GSTR-1. A second invoice, issued under the LUT while a GSTIN
// is on the profile, is left unpaid until rule 96A's watch flags it, so
// invoice.realisation_due reaches the log too.
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
	flagUnpaidInvoice(t, f)
}

// flagUnpaidInvoice issues an invoice under the default user's LUT (a
// GSTIN on the profile for the moment) and runs rule 96A's watch with the
// clock eleven months after its date, until the event is written.
func flagUnpaidInvoice(t *testing.T, f *fixtures) {
	q, e := f.q, f.e
	patch := func(body map[string]any) {
		if r := e.req("PATCH", "/api/v1/profile", body); r.Status != 200 {
			t.Fatalf("PATCH /profile: %d %s", r.Status, r.Body)
		}
	}
	patch(map[string]any{"pan": testPAN, "gstin": testGSTIN(t, testPAN)})
	lut := q.do(t, call{op: "createInvoice", headers: []string{"Idempotency-Key", newKey()}, want: 201}).value(t)
	patch(map[string]any{"gstin": ""})
	if asStr(lut["lutArn"]) == "" {
		t.Fatalf("the invoice was not issued under the LUT: %v", lut)
	}
	date, _ := time.ParseInLocation(time.DateOnly, asStr(lut["date"]), time.FixedZone("IST", 19800))
	e.DB.SetClock(func() time.Time { return date.AddDate(0, 11, 0).Add(11 * time.Hour) })
	defer e.DB.SetClock(nil)
	if err := e.DB.WithTx(context.Background(), jobs.EnqueueRealisationWatch); err != nil {
		t.Fatal(err)
	}
	wait.Until(t, 20*time.Second, "rule 96A's watch to flag the invoice", func() bool {
		evs, _, err := e.DB.EventLog(context.Background(), store.EventFilter{UserID: e.UserID, Type: store.EventInvoiceRealisationDue,
			Page: 1, Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		return len(evs) == 1
	})
}
