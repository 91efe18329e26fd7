package jobs

import (
	"context"

	"github.com/riverqueue/river"

	"github.com/payoutd/payoutd/store"
)

// ResolveUnknownWorker asks the rail again about an UNKNOWN payout until it
// says settled or failed. Funds stay reserved meanwhile: never lost.
type ResolveUnknownWorker struct {
	river.WorkerDefaults[ResolveUnknownArgs]
	P *Pipeline
}

// Work snoozes while the rail still does not know.
func (w *ResolveUnknownWorker) Work(ctx context.Context, job *river.Job[ResolveUnknownArgs]) error {
	p, err := w.P.load(ctx, job.Args.PaymentID)
	if err != nil || p.Status != store.StatusUnknown {
		return ignoreNotFound(err)
	}
	out, err := w.P.rail(p).Status(ctx, p)
	if err != nil {
		return err
	}
	if out.State == Unknown {
		return river.JobSnooze(w.P.UnknownPoll)
	}
	return w.P.DB.WithTx(ctx, func(tx *store.Tx) error {
		cur, err := tx.LoadPayment(p.ID)
		if err != nil || cur.Status != store.StatusUnknown {
			return err
		}
		return w.P.apply(tx, &cur, out)
	}, store.WithActor("system:reconciliation", ""))
}
