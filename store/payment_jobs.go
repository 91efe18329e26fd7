package store

import (
	"context"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
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
func (g Payments) PaymentJobs(ctx context.Context, paymentID string) ([]PaymentJob, error) {
	db := g.db
	var out []PaymentJob
	// River's documented filter on a job's args, by its own operator.
	params := river.NewJobListParams().Kinds(AdvanceJobKind).OrderBy(river.JobListOrderByID, river.SortOrderDesc).
		Where("args ->> '$.paymentId' = @payment_id", river.NamedArgs{"payment_id": paymentID})
	err := db.Snapshot(ctx, func(s *Snapshot) error {
		return db.listJobs(ctx, s.q, params, func(j *rivertype.JobRow) error {
			pj := PaymentJob{ID: j.ID, State: string(j.State), Attempt: j.Attempt, MaxAttempts: j.MaxAttempts,
				ScheduledAt: j.ScheduledAt.UTC()}
			if n := len(j.Errors); n > 0 {
				pj.LastError = j.Errors[n-1].Error
			}
			out = append(out, pj)
			return nil
		})
	})
	return out, err
}
