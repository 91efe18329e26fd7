package store

// Held payment rows. When one transaction takes a payout through several
// states (the sandbox rail's steps after confirm), writing the payments row
// and moving the status counts at every step rewrote the same row, index
// entries and counters four times; only the last state is ever read. A held
// row collects the transitions in memory, each still audited and evented at
// once, and FlushPaymentRow writes the row and the net count change once,
// guarded by the state the run started from, so a payout moved meanwhile
// by anyone else fails the whole transaction as Transition would.
//
// The guard is the row's status, attempt and update time as the copy knew
// them, not the status alone: a retry brings a payout back to PROCESSING,
// and a copy taken before it (a dispatcher's hand-over that waited) must
// not pass for the payout as it is now.
// Nothing reads a held payout's row from the database before the flush.

type heldPayment struct {
	from Payment
	next Payment
}

// HoldPaymentRow defers the row writes of p's transitions in this
// transaction until FlushPaymentRow.
func (tx *Tx) HoldPaymentRow(p Payment) { tx.held = &heldPayment{from: p, next: p} }

// FlushPaymentRow writes the held payout's final state, if it moved.
func (tx *Tx) FlushPaymentRow() error {
	h := tx.held
	tx.held = nil
	if h == nil || h.next.Status == h.from.Status {
		return nil
	}
	return tx.writePaymentRow(h.from, h.next)
}

// storeTransition writes a transition's row now, or holds it.
func (tx *Tx) storeTransition(from, next Payment) error {
	if h := tx.held; h != nil && h.next.ID == next.ID {
		h.next = next
		return nil
	}
	return tx.writePaymentRow(from, next)
}

// writePaymentRow moves the row from the state `from` to next and the
// status counts with it; a row no longer as `from` left it is
// ERR_INVALID_STATE.
func (tx *Tx) writePaymentRow(from, next Payment) error {
	var inr, settled any
	if next.AmountINR != nil {
		inr = *next.AmountINR
	}
	if next.SettledAt != nil {
		settled = ms(*next.SettledAt)
	}
	args := []any{next.Status, next.Reserved, next.Attempt, next.FailedReason, next.SettlementRef, next.SettlementRate, inr, settled,
		ms(tx.now), next.ID, from.Status, from.Attempt, ms(from.UpdatedAt)}
	q := movePayment
	if from.Status == StatusInitiated {
		q, args = movePaymentAndVault, append(args, next.VaultID)
	}
	res, err := tx.ExecContext(tx.ctx, q, args...)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return Errorf(ErrInvalidState, "payment %s is no longer %s", next.ID, from.Status)
	}
	tx.countPayment(next.UserID, from.Status, -1)
	tx.countPayment(next.UserID, next.Status, 1)
	return nil
}

// Only confirm, the move out of INITIATED, assigns the funding vault, and
// naming vault_id in the SET list costs a foreign-key lookup of the vault
// (~13 us of a ~60 us UPDATE), so the other moves leave it out.
const (
	movePayment = `UPDATE payments SET status = ?, reserved = ?, attempt = ?, failed_reason = ?, settlement_ref = ?,
		settlement_rate = ?, amount_inr = ?, settled_at = ?, updated_at = ? WHERE id = ? AND status = ? AND attempt = ? AND updated_at = ?`
	movePaymentAndVault = `UPDATE payments SET status = ?1, reserved = ?2, attempt = ?3, failed_reason = ?4, settlement_ref = ?5,
		settlement_rate = ?6, amount_inr = ?7, settled_at = ?8, updated_at = ?9, vault_id = nullif(?14, '')
		WHERE id = ?10 AND status = ?11 AND attempt = ?12 AND updated_at = ?13`
)
