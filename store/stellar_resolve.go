package store

import "github.com/payoutd/payoutd/apperr"

// RecordAppliedSubmission stores a transaction of a vault account that the
// network applied but this database never signed or stored (an operator
// resolving a payout with it, say after a restore from a backup older than
// the signing): as final, with its ledger and fee, so its sequence number
// is known like every other. A hash already stored is ERR_CONFLICT.
func (g ChainTx) RecordAppliedSubmission(s Submission) error {
	tx := g.tx
	var payment any
	if s.PaymentID != "" {
		payment = s.PaymentID
	}
	var closed any
	if !s.ClosedAt.IsZero() {
		closed = ms(s.ClosedAt)
	}
	_, err := tx.exec(`INSERT INTO stellar_submissions (hash, vault_id, payment_id, attempt, kind, seq, envelope,
		valid_until, state, result, ledger, fee, closed_at, created_at, finished_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		s.Hash, s.VaultID, payment, s.Attempt, s.Kind, s.Seq, s.Envelope, ms(s.ValidUntil), s.State, s.Result,
		nullInt(s.Ledger), nullInt(s.Fee), closed, ms(tx.now), ms(tx.now))
	if isUniqueViolation(err) {
		return apperr.Errorf(apperr.ErrConflict, "transaction %s is already recorded", s.Hash)
	}
	return err
}
