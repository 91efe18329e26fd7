package store

import (
	"strings"
	"testing"
)

// TestInFlightQueryUsesItsIndex: the sweep reads payouts in flight through
// the partial index, not by scanning every payment ever made.
func TestInFlightQueryUsesItsIndex(t *testing.T) {
	db, _ := openTestDB(t)
	plan := explain(t, db, inFlightQuery, 0, 0, "", 10)
	if !strings.Contains(plan, "payments_owed") || strings.Contains(plan, "TEMP B-TREE") {
		t.Fatalf("sweep query plan:\n%s", plan)
	}
}
