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
		if err := matchDeposits(tx, *p); err != nil {
			return err
		}
		f, err := tx.Tax().GenerateFIRA(*p)
		if err != nil {
			return err
		}
		p.FiraID = f.ID
	}
	if r.Status == store.Reconciled {
		if err := tx.Tax().RefreshTaxFigures(p.UserID); err != nil {
			return err
		}
	}
	return tx.Payments().Transition(p, store.StatusCompleted, nil)
}

// matchDeposits ties a payout that named no deposit to the deposits of its
// vault whose memo is its invoice reference (a client paying an invoice
// sends its number as the memo), so its FIRA cites the inward remittance.
func matchDeposits(tx *store.Tx, p store.Payment) error {
	if p.InvoiceRef == "" || p.VaultID == "" {
		return nil
	}
	return tx.Vaults().LinkDepositsByMemo(p.ID, p.VaultID, p.InvoiceRef)
}
