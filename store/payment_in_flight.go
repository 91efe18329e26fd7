package store

import (
	"context"
	"errors"
	"time"
)

// InFlightCursor pages through InFlightBefore: the (user, status) range it
// reached and the last payout listed there.
type InFlightCursor struct {
	UserID, Status string
	CreatedAt      int64
	ID             string
}

// The sweep finds payouts owed a step without an index of its own, which
// every confirm and completion paid for (an insert and a delete per payout
// on the single writer): payment_counts names the users with payouts in
// each status the pipeline owes a step (OwesStep, spelt out below), and
// payments_user_status lists each such (user, status) range, which holds
// only payouts in flight, never settled history.
const (
	owedRangesQuery = `SELECT user_id, status FROM payment_counts
		WHERE status IN ('COMPLIANCE_CHECK', 'PROCESSING', 'SUBMITTED', 'CONFIRMED', 'UNKNOWN') AND n > 0
		AND (user_id, status) >= (?, ?) ORDER BY user_id, status`
	owedInRangeQuery = `SELECT id, created_at FROM payments
		WHERE user_id = ? AND status = ? AND updated_at < ? AND (created_at < ? OR created_at = ? AND id < ?)
		ORDER BY created_at DESC, id DESC LIMIT ?`
)

// InFlightBefore lists up to limit payouts the pipeline still owes a step
// (UNKNOWN included: asking the rail again) that were last touched before
// `before`, after the cursor; fewer than limit means the end.
func (db *DB) InFlightBefore(ctx context.Context, before time.Time, after InFlightCursor, limit int) ([]string, InFlightCursor, error) {
	type owed struct{ userID, status string }
	var ranges []owed
	rows, err := db.R.QueryContext(ctx, owedRangesQuery, after.UserID, after.Status)
	if err != nil {
		return nil, after, err
	}
	for rows.Next() {
		var r owed
		if err := rows.Scan(&r.userID, &r.status); err != nil {
			rows.Close()
			return nil, after, err
		}
		ranges = append(ranges, r)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return nil, after, err
	}
	var ids []string
	for _, r := range ranges {
		// Within the cursor's range continue after its last payout;
		// later ranges start from their newest.
		created, id := int64(1<<62), ""
		if r.userID == after.UserID && r.status == after.Status && after.ID != "" {
			created, id = after.CreatedAt, after.ID
		}
		rows, err := db.R.QueryContext(ctx, owedInRangeQuery, r.userID, r.status, ms(before), created, created, id, limit-len(ids))
		if err != nil {
			return nil, after, err
		}
		for rows.Next() {
			c := InFlightCursor{UserID: r.userID, Status: r.status}
			if err := rows.Scan(&c.ID, &c.CreatedAt); err != nil {
				rows.Close()
				return nil, after, err
			}
			ids, after = append(ids, c.ID), c
		}
		if err := errors.Join(rows.Err(), rows.Close()); err != nil {
			return nil, after, err
		}
		if len(ids) == limit {
			break
		}
	}
	return ids, after, nil
}
