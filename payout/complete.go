package payout

import (
	"github.com/payoutd/payoutd/store"
)

// completeTx reconciles a CONFIRMED payout against its ledger credit,
// generates its FIRA, refreshes the tax figures when it reconciled, and
// completes it, in one transaction, so the figures can never miss a
// reconciliation that committed.
func (pl *Pipeline) completeTx(tx *store.Tx, p *store.Payment) error {
	r, err := Reconcile(tx, *p)
	if err != nil {
		return err
	}
	// Every settled cross-border payout gets its FIRA (and fira.generated)
	// here, whether or not it reconciled; GenerateFIRA is idempotent.
	if p.CrossBorder() {
		f, err := tx.GenerateFIRA(*p)
		if err != nil {
			return err
		}
		p.FiraID = f.ID
	}
	if r.Status == store.Reconciled {
		if err := tx.RefreshTaxFigures(p.UserID); err != nil {
			return err
		}
	}
	return tx.Transition(p, store.StatusCompleted, nil)
}
