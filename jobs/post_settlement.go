package jobs

import (
	"context"

	"github.com/riverqueue/river"

	"github.com/payoutd/payoutd/store"
)

// PostSettlementWorker reconciles the payout against its ledger credit, runs
// the FIRA and tax-refresh hooks and completes the payout, in one transaction.
type PostSettlementWorker struct {
	river.WorkerDefaults[PostSettlementArgs]
	P *Pipeline
}

// Work is idempotent: only a CONFIRMED payout is completed, once.
func (w *PostSettlementWorker) Work(ctx context.Context, job *river.Job[PostSettlementArgs]) error {
	return w.P.DB.WithTx(ctx, func(tx *store.Tx) error {
		p, err := tx.LoadPayment(job.Args.PaymentID)
		if err != nil || p.Status != store.StatusConfirmed {
			return ignoreNotFound(err)
		}
		r, err := tx.Reconcile(p)
		if err != nil {
			return err
		}
		if r.Status == store.Reconciled {
			if err := EnqueueTaxRefresh(tx, p.UserID); err != nil {
				return err
			}
		}
		for _, h := range w.P.OnComplete {
			if err := h(tx, &p); err != nil {
				return err
			}
		}
		return tx.Transition(&p, store.StatusCompleted, nil)
	}, store.WithActor("system:post_settlement", ""))
}
