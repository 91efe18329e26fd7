package jobs

import (
	"context"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/payoutd/payoutd/store"
)

// IdempotencyPurgeArgs deletes stored responses whose Idempotency-Key has
// expired. Expired rows are never replayed, so this only keeps the table
// (and every backup) from growing with each request ever made.
type IdempotencyPurgeArgs struct{}

// Kind is the stable job kind.
func (IdempotencyPurgeArgs) Kind() string { return "idempotency_purge" }

// IdempotencyPurgeWorker runs idempotency_purge jobs.
type IdempotencyPurgeWorker struct {
	river.WorkerDefaults[IdempotencyPurgeArgs]
	DB *store.DB
}

// Work deletes every expired stored response in one transaction.
func (w *IdempotencyPurgeWorker) Work(ctx context.Context, job *river.Job[IdempotencyPurgeArgs]) error {
	_, err := w.DB.Payments().PurgeExpiredIdempotency(ctx)
	return err
}

// IdempotencyPurgeInterval is how often expired keys are purged: a key
// lives 24 hours, so a row outlives its key by at most an hour.
const IdempotencyPurgeInterval = time.Hour

// IdempotencyPurgeJob schedules the purge every interval and once at start
// (a server that restarts more often than hourly still purges).
func IdempotencyPurgeJob(interval time.Duration) *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(interval), func() (river.JobArgs, *river.InsertOpts) {
		return IdempotencyPurgeArgs{}, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
			rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning, rivertype.JobStateRetryable, rivertype.JobStateScheduled}}}
	}, &river.PeriodicJobOpts{RunOnStart: true})
}
