package store

// Held payment rows. When one transaction takes a payout through several
// states (the sandbox rail's steps after confirm), writing the payments row
// and moving the status counts at every step rewrote the same row, index
// entries and counters four times; only the last state is ever read. A held
// row collects the transitions in memory, each still audited and evented at
// once, and FlushPaymentRow writes the row and the net count change once,
// guarded by the state the run started from, so a payout moved meanwhile
// by anyone else fails the whole transaction as Transition would.
// Nothing reads a held payout's row from the database before the flush.

type heldPayment struct {
	from string
	next Payment
}

// HoldPaymentRow defers the row writes of p's transitions in this
// transaction until FlushPaymentRow.
func (tx *Tx) HoldPaymentRow(p Payment) { tx.held = &heldPayment{from: p.Status, next: p} }

// FlushPaymentRow writes the held payout's final state, if it moved.
func (tx *Tx) FlushPaymentRow() error {
	h := tx.held
	tx.held = nil
	if h == nil || h.next.Status == h.from {
		return nil
	}
	return tx.writePaymentRow(h.from, h.next)
}

// storeTransition writes a transition's row now, or holds it.
func (tx *Tx) storeTransition(from string, next Payment) error {
	if h := tx.held; h != nil && h.next.ID == next.ID {
		h.next = next
		return nil
	}
	return tx.writePaymentRow(from, next)
}

// writePaymentRow moves the row from status `from` to next and the status
// counts with it; a row no longer in `from` is ERR_INVALID_STATE.
func (tx *Tx) writePaymentRow(from string, next Payment) error {
	var inr, settled any
	if next.AmountINR != nil {
		inr = *next.AmountINR
	}
	if next.SettledAt != nil {
		settled = ms(*next.SettledAt)
	}
	res, err := tx.ExecContext(tx.ctx, `UPDATE payments SET status = ?, vault_id = nullif(?, ''), reserved = ?, attempt = ?,
		failed_reason = ?, settlement_ref = ?, settlement_rate = ?, amount_inr = ?, settled_at = ?, updated_at = ?
		WHERE id = ? AND status = ?`, next.Status, next.VaultID, next.Reserved, next.Attempt, next.FailedReason, next.SettlementRef,
		next.SettlementRate, inr, settled, ms(tx.now), next.ID, from)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return Errorf(ErrInvalidState, "payment %s is no longer %s", next.ID, from)
	}
	tx.countPayment(next.UserID, from, -1)
	tx.countPayment(next.UserID, next.Status, 1)
	return nil
}
