package store

import (
	"strings"
	"testing"
)

// TestInFlightQueryUsesItsIndex: the sweep reads payouts in flight through
// the partial index, not by scanning every payment ever made.
func TestInFlightQueryUsesItsIndex(t *testing.T) {
	db, _ := openTestDB(t)
	rows, err := db.R.Query("EXPLAIN QUERY PLAN "+inFlightQuery, 0, 0, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan strings.Builder
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan.WriteString(detail + "\n")
	}
	if !strings.Contains(plan.String(), "payments_owed") || strings.Contains(plan.String(), "TEMP B-TREE") {
		t.Fatalf("sweep query plan:\n%s", plan.String())
	}
}
