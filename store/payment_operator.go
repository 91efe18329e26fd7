package store

import (
	"context"
	"time"
)

// OperatorQuery selects payouts across every user of one mode, for the
// operator's `payoutd payouts list` and bulk retry.
type OperatorQuery struct {
	Livemode bool
	// Status lists the payouts in that status; with neither Status nor
	// ExpiredSince set, the payouts that wait for a person are listed
	// (UNKNOWN, MANUAL_REVIEW, flagged, owing a step with no job, or to be
	// signed from a quarantined vault).
	Status string
	// ExpiredSince lists the payouts that failed because their
	// transaction expired, at or after this time.
	ExpiredSince time.Time
	Limit        int
}

// expiredPrefix starts the failedReason of a payout whose transaction
// expired unapplied (the live rail's): nothing was paid, a retry sends a
// new transaction.
const expiredPrefix = "SETTLEMENT_EXPIRED:"

// OperatorPayments lists the payouts q selects, oldest change first.
func (g Payments) OperatorPayments(ctx context.Context, q OperatorQuery) ([]Payment, error) {
	db := g.db
	limit := q.Limit
	if limit <= 0 {
		limit = 1000
	}
	var query string
	var args []any
	switch {
	case !q.ExpiredSince.IsZero():
		query = "SELECT " + paymentCols + ` FROM payments WHERE livemode = ? AND status = ? AND substr(failed_reason, 1, ?) = ?
			AND updated_at >= ? ORDER BY updated_at, id LIMIT ?`
		args = []any{q.Livemode, StatusFailed, len(expiredPrefix), expiredPrefix, ms(q.ExpiredSince), limit}
	case q.Status != "":
		query = "SELECT " + paymentCols + " FROM payments WHERE livemode = ? AND status = ? ORDER BY updated_at, id LIMIT ?"
		args = []any{q.Livemode, q.Status, limit}
	default:
		quarantined, err := db.quarantinedVaultIDs(ctx)
		if err != nil {
			return nil, err
		}
		return db.owingPayments(ctx, "SELECT "+paymentCols+` FROM payments WHERE livemode = ?
			AND (status IN (?, ?) OR attention != '' OR status IN (`+owingStatuses+`)) ORDER BY updated_at, id`,
			[]any{q.Livemode, StatusUnknown, StatusManualReview},
			func(p Payment, alive bool) bool {
				waitsInQuarantine := quarantined[p.VaultID] && (p.Status == StatusComplianceCheck || p.Status == StatusProcessing)
				return p.Status == StatusUnknown || p.Status == StatusManualReview || p.Attention != "" || !alive || waitsInQuarantine
			}, limit)
	}
	return db.payments(ctx, query, args...)
}

// quarantinedVaultIDs is the set of quarantined vaults.
func (db *DB) quarantinedVaultIDs(ctx context.Context) (map[string]bool, error) {
	rows, err := db.query(ctx, "SELECT vault_id FROM vault_quarantines WHERE released_at IS NULL")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out[id] = true
	}
	return out, rows.Err()
}
