package store

import (
	"context"
	"time"
)

// InFlightCursor pages through InFlightBefore.
type InFlightCursor struct {
	UpdatedAt int64
	ID        string
}

// inFlightQuery matches the partial index payments_owed term for term (the
// statuses of OwesStep), so it reads only payouts in flight, never settled
// history.
const inFlightQuery = `SELECT id, updated_at FROM payments
	WHERE status IN ('COMPLIANCE_CHECK', 'PROCESSING', 'SUBMITTED', 'CONFIRMED', 'UNKNOWN')
	AND updated_at < ? AND (updated_at, id) > (?, ?) ORDER BY updated_at, id LIMIT ?`

// InFlightBefore lists payouts the pipeline still owes a step (UNKNOWN
// included: asking the rail again) that were last touched before `before`,
// oldest first, after the cursor.
func (db *DB) InFlightBefore(ctx context.Context, before time.Time, after InFlightCursor, limit int) ([]string, InFlightCursor, error) {
	rows, err := db.R.QueryContext(ctx, inFlightQuery, ms(before), after.UpdatedAt, after.ID, limit)
	if err != nil {
		return nil, after, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		if err := rows.Scan(&after.ID, &after.UpdatedAt); err != nil {
			return nil, after, err
		}
		ids = append(ids, after.ID)
	}
	return ids, after, rows.Err()
}
