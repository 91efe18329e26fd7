package store

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// TestInFlightQueriesUseIndexes: the sweep reads payouts in flight through
// payment_counts and the (user, status) index, never scanning payments.
func TestInFlightQueriesUseIndexes(t *testing.T) {
	db, _ := openTestDB(t)
	if plan := explain(t, db, owedRangesQuery, "", ""); strings.Contains(plan, "payments ") || strings.Contains(plan, "TEMP B-TREE") {
		t.Fatalf("owed ranges plan:\n%s", plan)
	}
	plan := explain(t, db, owedInRangeQuery, "usr_1", StatusProcessing, 0, 1, 1, "", 10)
	if !strings.Contains(plan, "payments_user_status") || strings.Contains(plan, "TEMP B-TREE") {
		t.Fatalf("owed payouts plan:\n%s", plan)
	}
}

// TestInFlightBeforePages: paging with a small limit lists every payout
// owed a step and last touched before the cutoff exactly once, across users
// and statuses, and nothing else.
func TestInFlightBeforePages(t *testing.T) {
	is := is.New(t)
	db, _ := openTestDB(t)
	ctx := context.Background()
	want := map[string]bool{}
	is.NoErr(db.WithTx(ctx, func(tx *Tx) error {
		n := 0
		add := func(user, status string, updated int64, owed bool) error {
			n++
			id := fmt.Sprintf("pay_%03d", n)
			// created_at repeats, so ties are broken by id.
			if _, err := tx.ExecContext(ctx, `INSERT INTO payments (id, user_id, livemode, txn_id, type, status, amount, currency,
				destination_address, created_at, updated_at) VALUES (?, ?, 0, ?, 'SEND', ?, 1, 'USD', 'G', ?, ?)`,
				id, user, id, status, n%4, updated); err != nil {
				return err
			}
			tx.countPayment(user, status, 1)
			if owed {
				want[id] = true
			}
			return nil
		}
		for _, user := range []string{"usr_a", "usr_b", "usr_c"} {
			if _, err := tx.ExecContext(ctx, "INSERT INTO users (id, email, livemode, created_at) VALUES (?, ?, 0, 0)", user, user); err != nil {
				return err
			}
			for range 3 {
				for _, p := range []struct {
					status  string
					updated int64
					owed    bool
				}{
					{StatusComplianceCheck, 100, true},
					{StatusUnknown, 100, true},
					{StatusConfirmed, 5000, false}, // touched after the cutoff
					{StatusCompleted, 100, false},  // settled
					{StatusManualReview, 100, false},
				} {
					if err := add(user, p.status, p.updated, p.owed); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}))
	for _, limit := range []int{1, 2, 5, 100} {
		got := map[string]bool{}
		var after InFlightCursor
		for {
			ids, next, err := db.InFlightBefore(ctx, fromMS(1000), after, limit)
			is.NoErr(err)
			is.True(len(ids) <= limit)
			for _, id := range ids {
				is.True(!got[id]) // listed once
				got[id] = true
			}
			if len(ids) < limit {
				break
			}
			after = next
		}
		is.Equal(got, want)
	}
}
