package jobs

import (
	"context"
	"fmt"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/payoutd/payoutd/store"
)

// AdvanceWorker drives a payout from its current state as far as it can go.
type AdvanceWorker struct {
	river.WorkerDefaults[AdvanceArgs]
	P *Pipeline
}

// maxSteps bounds one run; the longest path has five steps.
const maxSteps = 8

// Work runs step after step until the payout rests: final, waiting for a
// person (MANUAL_REVIEW), or UNKNOWN at the rail (the job snoozes and asks
// again).
func (w *AdvanceWorker) Work(ctx context.Context, job *river.Job[AdvanceArgs]) error {
	pl := w.P
	p, err := pl.DB.LoadPayment(ctx, job.Args.PaymentID)
	if err != nil {
		return ignoreNotFound(err)
	}
	if q, ok := pl.advanceInstant(ctx, p, false); ok {
		p = q
	}
	for i := 0; i < maxSteps; i++ {
		switch p.Status {
		case store.StatusComplianceCheck:
			err = pl.comply(ctx, p)
		case store.StatusProcessing:
			_, err = pl.submit(ctx, p)
		case store.StatusSubmitted:
			err = pl.poll(ctx, p)
		case store.StatusUnknown:
			err = pl.resolveUnknown(ctx, p)
		case store.StatusConfirmed:
			err = pl.complete(ctx, p)
		default:
			return nil // at rest
		}
		// Steps act on the state read before them; if another run moved
		// the payout meanwhile, Transition refused and nothing was written,
		// so read it again and carry on from where it is now.
		if err != nil && store.ErrorCode(err) != store.ErrInvalidState {
			return err
		}
		if p, err = pl.DB.LoadPayment(ctx, job.Args.PaymentID); err != nil {
			return ignoreNotFound(err)
		}
	}
	return fmt.Errorf("payment %s did not come to rest in %d steps", job.Args.PaymentID, maxSteps)
}

// Enqueue hands a payout made ready by tx (confirm, retry, review approve),
// in its final state in tx, to the pipeline: to this process's dispatcher once tx commits, or, where
// none runs (the CLI), as a River job inserted in tx. The dispatcher path
// writes no job row in tx on purpose (docs/decisions.md, Pipeline): the
// status tx commits is itself the durable queue entry, which the sweep
// (store.InFlightBefore) drains should the hand-over be lost.
func Enqueue(tx *store.Tx, p store.Payment) error {
	if tx.Ready(p) {
		return nil
	}
	return tx.Enqueue(AdvanceArgs{PaymentID: p.ID}, advanceOpts)
}

// advanceOpts makes advance jobs unique per payout among live jobs: however
// many hands queue one (a dispatcher hand-over, the sweep, the CLI), one
// job advances the payout at a time.
var advanceOpts = &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
	rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRetryable,
	rivertype.JobStateRunning, rivertype.JobStateScheduled,
}}}
