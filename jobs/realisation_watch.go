package jobs

import (
	"context"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/taxes"
)

// RealisationWatchArgs runs rule 96A's watch over every user's LUT
// invoices (taxes.FlagRealisations): an invoice not fully paid in foreign
// exchange from 30 days before its one-year limit gets its
// invoice.realisation_due event, once.
type RealisationWatchArgs struct{}

// Kind is the stable job kind.
func (RealisationWatchArgs) Kind() string { return "realisation_watch" }

// RealisationWatchWorker runs realisation_watch jobs.
type RealisationWatchWorker struct {
	river.WorkerDefaults[RealisationWatchArgs]
	DB *store.DB
}

// Work flags what is due; each invoice is flagged in its own transaction
// and at most once, so a run cut short or run twice emits nothing twice.
func (w *RealisationWatchWorker) Work(ctx context.Context, job *river.Job[RealisationWatchArgs]) error {
	_, err := taxes.FlagRealisations(ctx, w.DB)
	return err
}

// RealisationWatchInterval is how often the watch runs: an invoice reaches
// its watch day at an IST midnight, and is flagged within the hour.
const RealisationWatchInterval = time.Hour

// RealisationWatchJob schedules the watch every interval and once at start.
func RealisationWatchJob(interval time.Duration) *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(interval), func() (river.JobArgs, *river.InsertOpts) {
		return RealisationWatchArgs{}, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
			rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning, rivertype.JobStateRetryable, rivertype.JobStateScheduled}}}
	}, &river.PeriodicJobOpts{RunOnStart: true})
}

// EnqueueRealisationWatch queues a run of the watch now, in tx.
func EnqueueRealisationWatch(tx *store.Tx) error {
	return tx.Enqueue(RealisationWatchArgs{}, nil)
}
