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
// memory and written with the moves after it; in a transaction opened
// with CheckMovesLate the first move is kept too.
func (tx *Tx) writePaymentRow(from, next Payment) error {
	switch h := tx.held; {
	case h != nil && sameRow(h.next, from):
		h.next = next
	default:
		if err := tx.releasePayment(); err != nil {
			return err
		}
		if tx.checkLate {
			tx.held = &heldPayment{written: from, next: next}
			break
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
//
// With CheckMovesLate the first move is held as well, unchecked: the
// UPDATE that writes the moves is the one guarded by the row as the
// caller read it (written is then that copy), so a payout an instant rail
// moves four times is written once.
type heldPayment struct {
	written Payment // as the last UPDATE left the row, or as read (unchecked)
	next    Payment // as the moves since then left it
}

// CheckMovesLate opens a transaction whose first move of a payment is
// checked against the row by the UPDATE that writes it with the moves
// after it, when the transaction ends or something reads the payments
// table, instead of at once. Only for a transaction whose every error
// fails it whole (a pipeline step): a payout moved by someone else since
// it was read then fails the transaction at its end with
// ERR_INVALID_STATE, and nothing of it is written, as before; but a move
// that returned nil may still fail the transaction later. A constraint
// failure meanwhile checks the row first (checkHeld), so a step that
// repeats another run's work (a settlement booked twice, a reservation
// released twice) is still told the payout moved.
func CheckMovesLate() TxOption { return func(tx *Tx) { tx.checkLate = true } }

// checkHeld writes a held row's moves after a statement failed on a
// constraint: if the row was not as its first move read it, that is the
// failure to report (ERR_INVALID_STATE); a constraint failure leaves
// SQLite's transaction open, so the UPDATE may still run.
func (tx *Tx) checkHeld(err error) error {
	if !tx.checkLate || tx.held == nil || !isConstraintViolation(err) {
		return err
	}
	if rerr := tx.releasePayment(); rerr != nil {
		return rerr
	}
	return err
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
