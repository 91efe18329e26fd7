package store

import (
	"strings"
	"testing"
)

// TestSettlementCreditUsesTheOnceIndex: reconciliation finds a payment's
// settlement credit through the unique partial index, not a scan.
func TestSettlementCreditUsesTheOnceIndex(t *testing.T) {
	db, _ := openTestDB(t)
	plan := explain(t, db, settlementCreditQuery, "pay_x")
	if !strings.Contains(plan, "ledger_txns_once") || strings.Contains(plan, "SCAN") {
		t.Fatalf("settlement credit plan:\n%s", plan)
	}
}

// TestFIRAPaymentFilterUsesTheUniqueIndex: the FIRA list's paymentId
// filter (rows and total) finds its one row through firas.payment_id.
func TestFIRAPaymentFilterUsesTheUniqueIndex(t *testing.T) {
	db, _ := openTestDB(t)
	for _, q := range []string{
		"SELECT count(*) FROM firas f WHERE f.user_id = ? AND f.payment_id = ?",
		"SELECT " + firaCols + firaFrom + "WHERE f.user_id = ? AND f.payment_id = ? ORDER BY f.generated_at DESC, f.id DESC LIMIT 20",
	} {
		plan := explain(t, db, q, "usr_1", "pay_1")
		if !strings.Contains(plan, "INDEX sqlite_autoindex_firas_") || !strings.Contains(plan, "(payment_id=?)") || strings.Contains(plan, "SCAN") {
			t.Fatalf("%s\nplan:\n%s", q, plan)
		}
	}
}
