package store

import (
	"github.com/payoutd/payoutd/apperr"
)

// writePaymentRow moves the row from the state `from` to next and the
// status counts with it; a row no longer as `from` left it is
// ERR_INVALID_STATE. A move clears the payout's attention: whatever a
// person was asked to look at, the payout is moving again.
func (tx *Tx) writePaymentRow(from, next Payment) error {
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
	res, err := tx.exec(q, args...)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return apperr.Errorf(apperr.ErrInvalidState, "payment %s is no longer %s", next.ID, from.Status)
	}
	tx.countPayment(next.UserID, from.Status, -1)
	tx.countPayment(next.UserID, next.Status, 1)
	tx.observeMove(from, next)
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
