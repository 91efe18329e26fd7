package jobs

import (
	"context"
	"time"

	"github.com/riverqueue/river"

	"github.com/payoutd/payoutd/store"
)

// SweepArgs is the periodic search for payouts the pipeline owes a step but
// that no dispatcher goroutine and no River job is advancing: handed over
// by a process that died before advancing them, or dropped by a full
// dispatcher queue. The server queues one as it starts (app.start: River's
// periodic jobs wait for leadership) and River every SweepEvery after.
type SweepArgs struct{}

// Kind is the stable job kind.
func (SweepArgs) Kind() string { return "payment_sweep" }

// SweepEvery is how often the sweep runs; SweepAge how long a payout must
// have been untouched (or untouched since this process started) to count
// as left behind.
const (
	SweepEvery = 10 * time.Second
	SweepAge   = 10 * time.Second
)

// sweepBatch is how many payouts one transaction queues.
const sweepBatch = 500

// SweepWorker queues a payment_advance job for each payout left behind.
// Advance jobs are unique per payout among live jobs (advanceOpts), so a
// payout that already has one (retrying, or snoozing on an UNKNOWN rail)
// gets no second.
type SweepWorker struct {
	river.WorkerDefaults[SweepArgs]
	P       *Pipeline
	Started time.Time // this process's start: everything older is orphaned
}

func (w *SweepWorker) Work(ctx context.Context, job *river.Job[SweepArgs]) error {
	db := w.P.DB
	cutoff := db.Now().Add(-SweepAge)
	if w.Started.After(cutoff) {
		cutoff = w.Started
	}
	var after store.InFlightCursor
	for {
		ids, next, err := db.InFlightBefore(ctx, cutoff, after, sweepBatch)
		if err != nil || len(ids) == 0 {
			return err
		}
		err = db.WithTx(ctx, func(tx *store.Tx) error {
			for _, id := range ids {
				if err := tx.Enqueue(AdvanceArgs{PaymentID: id}, advanceOpts); err != nil {
					return err
				}
			}
			return nil
		}, store.WithActor("system:sweep", ""))
		if err != nil {
			return err
		}
		after = next
	}
}
