package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"
)

// PaymentJob is one of a payout's advance jobs as River holds it, for a
// person looking at why a payout does not move.
type PaymentJob struct {
	ID          int64
	State       string // River's: available, scheduled, running, retryable, completed, discarded, …
	Attempt     int
	MaxAttempts int
	ScheduledAt time.Time
	LastError   string
}

// PaymentJobs lists the payout's advance jobs River still keeps, newest
// first.
func (db *DB) PaymentJobs(ctx context.Context, paymentID string) ([]PaymentJob, error) {
	rows, err := db.query(ctx, `SELECT id, state, attempt, max_attempts, scheduled_at, coalesce(CAST(errors AS TEXT), '')
		FROM river_job WHERE kind = ? AND json_extract(CAST(args AS TEXT), '$.paymentId') = ? ORDER BY id DESC`, AdvanceJobKind, paymentID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []PaymentJob
	for rows.Next() {
		var j PaymentJob
		var scheduled sql.NullString
		var errs string
		if err := rows.Scan(&j.ID, &j.State, &j.Attempt, &j.MaxAttempts, &scheduled, &errs); err != nil {
			return nil, err
		}
		j.ScheduledAt = riverTime(scheduled.String)
		j.LastError = lastJobError(errs)
		out = append(out, j)
	}
	return out, rows.Err()
}

// riverTime reads a timestamp as riversqlite stores it.
func riverTime(s string) time.Time {
	for _, layout := range []string{"2006-01-02 15:04:05.999999999", time.RFC3339Nano, "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// lastJobError is the newest error of River's errors column (a JSON array).
func lastJobError(errs string) string {
	var list []struct {
		Error string `json:"error"`
	}
	if json.Unmarshal([]byte(errs), &list) != nil || len(list) == 0 {
		return ""
	}
	return list[len(list)-1].Error
}
