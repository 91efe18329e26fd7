package jobs

import (
	"context"

	"github.com/riverqueue/river"

	"github.com/payoutd/payoutd/store"
)

// TaxRefreshArgs recomputes a user's tax and GST figures from their
// reconciled payments.
type TaxRefreshArgs struct {
	UserID string `json:"userId"`
}

// Kind is the stable job kind.
func (TaxRefreshArgs) Kind() string { return "tax_refresh" }

// EnqueueTaxRefresh queues a refresh in the reconciliation's transaction.
func EnqueueTaxRefresh(tx *store.Tx, userID string) error {
	return tx.Enqueue(TaxRefreshArgs{UserID: userID}, nil)
}

// TaxRefreshWorker rebuilds the user's figures in one transaction.
type TaxRefreshWorker struct {
	river.WorkerDefaults[TaxRefreshArgs]
	DB *store.DB
}

// Work folds the reconciliations queued since the last refresh into the
// aggregates (RefreshTaxFigures); an empty queue changes nothing, so running
// it twice is harmless.
func (w *TaxRefreshWorker) Work(ctx context.Context, job *river.Job[TaxRefreshArgs]) error {
	return w.DB.WithTx(ctx, func(tx *store.Tx) error {
		return tx.Tax().RefreshTaxFigures(job.Args.UserID)
	}, store.WithActor("system:tax", ""))
}
