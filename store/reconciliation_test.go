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
