package stellar

import (
	"context"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// SyncArgs is the periodic River job that brings every live vault level
// with its account on the network.
type SyncArgs struct{}

// Kind is the stable job kind.
func (SyncArgs) Kind() string { return "stellar_vault_sync" }

// SyncWorker runs stellar_vault_sync jobs.
type SyncWorker struct {
	river.WorkerDefaults[SyncArgs]
	Rail *Rail
}

// Work syncs every live vault; an unreachable network waits for the next run.
func (w *SyncWorker) Work(ctx context.Context, job *river.Job[SyncArgs]) error {
	return w.Rail.SyncVaults(ctx)
}

// DefaultSyncInterval is how often live vaults are compared with the chain.
const DefaultSyncInterval = 30 * time.Second

// SyncJob schedules the sync every interval, and once at start.
func SyncJob(interval time.Duration) *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(interval), func() (river.JobArgs, *river.InsertOpts) {
		// One run at a time: a slow network must not pile runs up.
		return SyncArgs{}, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
			rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning, rivertype.JobStateRetryable, rivertype.JobStateScheduled}}}
	}, &river.PeriodicJobOpts{RunOnStart: true})
}
