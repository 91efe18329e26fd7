package store

import (
	"context"
	"time"
)

// PayoutsInFlight counts the payouts owed a pipeline step (confirmed and
// not yet COMPLETED or FAILED), from the maintained counts rather than a
// scan of payments.
func (g Bench) PayoutsInFlight(ctx context.Context) (int64, error) {
	db := g.db
	var n int64
	err := db.r.QueryRowContext(ctx, `SELECT coalesce(sum(n), 0) FROM payment_counts WHERE status IN
		('COMPLIANCE_CHECK','PROCESSING','SUBMITTED','CONFIRMED','UNKNOWN')`).Scan(&n)
	return n, err
}

// FinishedPayouts maps every COMPLETED or FAILED payout to the time it
// reached that state.
func (g Bench) FinishedPayouts(ctx context.Context) (map[string]time.Time, error) {
	db := g.db
	return db.timesByID(ctx, "SELECT id, updated_at FROM payments WHERE status IN ('COMPLETED','FAILED')")
}

// AuditTimes maps each resource to the time of its audit row for action
// (the last one, if it has several).
func (g Bench) AuditTimes(ctx context.Context, action string) (map[string]time.Time, error) {
	db := g.db
	return db.timesByID(ctx, "SELECT resource_id, at FROM audit_log WHERE action = ? ORDER BY seq", action)
}

// timesByID maps the first column of each row to the time in the second;
// a later row for the same id wins.
func (db *DB) timesByID(ctx context.Context, query string, args ...any) (map[string]time.Time, error) {
	rows, err := db.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]time.Time{}
	for rows.Next() {
		var id string
		var at int64
		if err := rows.Scan(&id, &at); err != nil {
			return nil, err
		}
		out[id] = fromMS(at)
	}
	return out, rows.Err()
}
