package store

import (
	"strings"
	"testing"
)

// TestClientAndLinkedPlans: a client's payouts and FIRAs, and the receipts
// that collect an invoice, are read through indexes that hold just them,
// never by reading every payout, FIRA or receipt of the user (at 10^5
// payouts that made a client's console page 450 ms and the Tax page, by
// its GST figures, 230 ms).
func TestClientAndLinkedPlans(t *testing.T) {
	db, _ := openTestDB(t)
	plans := map[string]string{}
	where, args := PaymentFilter{UserID: "u", ClientID: "cli_1"}.where(false)
	plans["a client's payouts"] = explain(t, db, "SELECT id FROM payments WHERE "+where+paymentOrder.orderBy()+" LIMIT 11", args...)
	plans["a client's payout count"] = explain(t, db, "SELECT count(*) FROM payments WHERE "+where, args...)
	where, args = FIRAFilter{UserID: "u", ClientID: "cli_1"}.where()
	plans["a client's FIRAs"] = explain(t, db, "SELECT f.id FROM firas f WHERE "+where+firaOrder.orderBy()+" LIMIT 11", args...)
	plans["a client's FIRA count"] = explain(t, db, "SELECT count(*) FROM firas f WHERE "+where, args...)
	plans["receipts that collect an invoice"] = explain(t, db, receiptDocumentsSQL(linkedReceipts), "u", "2026-04-01", "2027-03-31")
	for what, plan := range plans {
		if strings.Contains(plan, "SCAN") || strings.Contains(plan, "firas_user") ||
			!strings.Contains(plan, "payments_user_client") && !strings.Contains(plan, "payment_invoices_user") {
			t.Errorf("%s: not read through the client's or the links' index:\n%s", what, plan)
		}
	}
}
