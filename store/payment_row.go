package store

import (
	"strings"

	"github.com/payoutd/payoutd/apperr"
)

// writePaymentRow moves the row from the state `from` to next and the
// status counts with it; a row no longer as `from` left it is
// ERR_INVALID_STATE. A move clears the payout's attention: whatever a
// person was asked to look at, the payout is moving again.
//
// A move of the row this transaction holds (see heldPayment) is kept in
// memory and written with the moves after it.
func (tx *Tx) writePaymentRow(from, next Payment) error {
	if h := tx.held; h != nil && sameRow(h.next, from) {
		h.next = next
	} else {
		if err := tx.releasePayment(); err != nil {
			return err
		}
		if err := tx.updatePaymentRow(from, next); err != nil {
			return err
		}
		tx.held = &heldPayment{written: next, next: next}
	}
	tx.countPayment(next.UserID, from.Status, -1)
	tx.countPayment(next.UserID, next.Status, 1)
	tx.observeMove(from, next)
	return nil
}

// heldPayment is the payment row this transaction wrote last. A payout on
// an instant rail moves four times in one transaction (compliance,
// submission, settlement, completion). The first move's UPDATE proves the
// row was as the caller read it; from then until the transaction ends no
// one else can change it, so the moves after it need to reach the row
// only before anything reads it. They are kept here and written with one
// UPDATE: before any statement that names the payments table (exec, query
// and queryRow release the row) and when the transaction's fn returns.
type heldPayment struct {
	written Payment // as the last UPDATE left the row
	next    Payment // as the moves since then left it
}

// sameRow reports whether a and b are the same payment in the same state,
// as writePaymentRow's guard compares them.
func sameRow(a, b Payment) bool {
	return a.ID == b.ID && a.Status == b.Status && a.Attempt == b.Attempt && a.Version == b.Version &&
		ms(a.UpdatedAt) == ms(b.UpdatedAt)
}

// releasePayment writes the held row's moves, if any, and lets the row go:
// whatever runs next may change it. A failure fails the transaction, even
// if its caller goes on (see Tx.release).
func (tx *Tx) releasePayment() error {
	h := tx.held
	if h == nil {
		return nil
	}
	tx.held = nil
	if h.next.Version == h.written.Version {
		return nil
	}
	if err := tx.updatePaymentRow(h.written, h.next); err != nil {
		tx.broken = err
		return err
	}
	return nil
}

// releasePaymentFor releases the held row before a statement that names
// the payments table.
func (tx *Tx) releasePaymentFor(query string) error {
	if tx.held == nil || !strings.Contains(query, "payments") {
		return nil
	}
	return tx.releasePayment()
}

// updatePaymentRow runs the guarded UPDATE of a move.
func (tx *Tx) updatePaymentRow(from, next Payment) error {
	if tx.broken != nil {
		return tx.broken // see Tx.release
	}
	var inr, settled any
	if next.AmountINR != nil {
		inr = *next.AmountINR
	}
	if next.SettledAt != nil {
		settled = ms(*next.SettledAt)
	}
	args := []any{next.Status, next.Reserved, next.Attempt, next.FailedReason, next.SettlementRef, next.SettlementRate, inr, settled,
		ms(tx.now), next.ID, from.Status, from.Attempt, ms(from.UpdatedAt), next.ReviewReason, next.Version}
	q := movePayment
	if from.Status == StatusInitiated {
		q, args = movePaymentAndVault, append(args, next.VaultID)
	}
	res, err := tx.x.ExecContext(tx.ctx, q, args...)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return apperr.Errorf(apperr.ErrInvalidState, "payment %s is no longer %s", next.ID, from.Status)
	}
	return nil
}

// Only confirm, the move out of INITIATED, assigns the funding vault, and
// naming vault_id in the SET list costs a foreign-key lookup of the vault,
// so the other moves leave it out.
const (
	movePayment = `UPDATE payments SET status = ?1, reserved = ?2, attempt = ?3, failed_reason = ?4, settlement_ref = ?5,
		settlement_rate = ?6, amount_inr = ?7, settled_at = ?8, updated_at = ?9, review_reason = ?14, version = ?15,
		attention = '', attention_at = NULL WHERE id = ?10 AND status = ?11 AND attempt = ?12 AND updated_at = ?13`
	movePaymentAndVault = `UPDATE payments SET status = ?1, reserved = ?2, attempt = ?3, failed_reason = ?4, settlement_ref = ?5,
		settlement_rate = ?6, amount_inr = ?7, settled_at = ?8, updated_at = ?9, review_reason = ?14, version = ?15,
		vault_id = nullif(?16, ''), attention = '', attention_at = NULL WHERE id = ?10 AND status = ?11 AND attempt = ?12 AND updated_at = ?13`
)
