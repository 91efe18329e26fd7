package store

import (
	"strings"
	"time"
)

// PayoutMove is one committed move of a payout from one status to another.
// SinceConfirm is set on a move to COMPLETED: how long the payout took
// from its confirmation (the move out of INITIATED) to here.
type PayoutMove struct {
	From, To     string
	Livemode     bool
	SinceConfirm time.Duration
}

// ObservePayouts has f told of every payout move once its transaction is
// durable, before WithTx returns (the metrics count them). Every move goes
// through writePaymentRow, which keeps it; f must not block.
func (g Payments) ObservePayouts(f func(PayoutMove)) {
	db := g.db
	db.payoutObserver = f
}

// observeMove keeps a move for the observer, if any, told once the
// transaction commits.
func (tx *Tx) observeMove(from, next Payment) {
	f := tx.payoutObserver
	if f == nil {
		return
	}
	m := PayoutMove{From: from.Status, To: next.Status, Livemode: next.Livemode}
	if next.Status == StatusCompleted {
		// The confirm's audit row (its action names the status it moved to)
		// says when it was confirmed; audit_resource indexes the lookup.
		var at int64
		if err := tx.queryRow(`SELECT coalesce(max(at), 0) FROM audit_log WHERE resource_id = ? AND action = ?`,
			next.ID, "payment."+strings.ToLower(StatusComplianceCheck)).Scan(&at); err == nil && at > 0 {
			m.SinceConfirm = tx.now.Sub(fromMS(at))
		}
	}
	tx.moves = append(tx.moves, m)
}
