package jobs

import (
	"context"

	"github.com/payoutd/payoutd/store"
)

// complete reconciles a CONFIRMED payout against its ledger credit,
// generates its FIRA, refreshes the tax figures when it reconciled, and
// completes it — all in one transaction, so the figures can never miss a
// reconciliation that committed.
func (pl *Pipeline) complete(ctx context.Context, p store.Payment) error {
	return pl.DB.WithTx(ctx, func(tx *store.Tx) error {
		return pl.completeTx(tx, &p)
	}, store.WithActor("system:post_settlement", ""))
}

func (pl *Pipeline) completeTx(tx *store.Tx, p *store.Payment) error {
	r, err := tx.Reconcile(*p)
	if err != nil {
		return err
	}
	// Every settled cross-border payout gets its FIRA (and fira.generated)
	// here, whether or not it reconciled; GenerateFIRA is idempotent.
	if p.CrossBorder() {
		if _, err := tx.GenerateFIRA(*p); err != nil {
			return err
		}
	}
	if r.Status == store.Reconciled {
		if err := tx.RefreshTaxFigures(p.UserID); err != nil {
			return err
		}
	}
	return tx.Transition(p, store.StatusCompleted, nil)
}
