package store

import (
	"time"
)

// Unreconciled is what the tax and GST figures leave out: receipts settled
// in a span whose reconciliation is still pending. Amounts are paise.
type Unreconciled struct {
	Count      int64
	AmountINR  int64
	PaymentIDs []string // the oldest few, to start resolving from
}

// unreconciledSample bounds PaymentIDs; Count says how many there are.
const unreconciledSample = 20

// pendingOnly is the partial index's own condition, written out: SQLite
// uses a partial index only when the query repeats its WHERE term, which a
// bound parameter does not.
const pendingOnly = "status = '" + PendingReconciliation + "'"

// UnreconciledReceipts sums the user's PENDING_RECONCILIATION receipts
// settled in [from, to). It reads the partial index reconciliations_pending
// alone (it covers both queries), never the reconciled history.
func (s *Snapshot) UnreconciledReceipts(userID string, from, to time.Time) (Unreconciled, error) {
	ctx, db := s.ctx, s.q
	var u Unreconciled
	err := db.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(amount_inr), 0) FROM reconciliations
		WHERE user_id = ? AND `+pendingOnly+` AND settled_at >= ? AND settled_at < ?`,
		userID, ms(from), ms(to)).Scan(&u.Count, &u.AmountINR)
	if err != nil || u.Count == 0 {
		return u, err
	}
	rows, err := db.QueryContext(ctx, `SELECT payment_id FROM reconciliations
		WHERE user_id = ? AND `+pendingOnly+` AND settled_at >= ? AND settled_at < ? ORDER BY settled_at, payment_id LIMIT ?`,
		userID, ms(from), ms(to), unreconciledSample)
	if err != nil {
		return u, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return u, err
		}
		u.PaymentIDs = append(u.PaymentIDs, id)
	}
	return u, rows.Err()
}
