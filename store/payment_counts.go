package store

import (
	"context"
	"database/sql"
)

// Payment counts move once per batch. payment_counts (GET /payments's
// totals) moved in every transaction that inserted or moved a payment:
// two upserts per payout on the single writer, on the same few rows. Now a
// transaction adds its deltas up in memory; when it succeeds they join the
// batch's, and the committer writes the batch's net change with one
// statement just before COMMIT. The counts commit in the same SQLite
// transaction as the payments they count, so no reader ever sees them
// apart; if that statement fails, the whole batch fails. Nothing reads
// payment_counts inside a transaction.

type countKey struct{ userID, status string }

const (
	countInsert = `INSERT INTO payment_counts (user_id, status, n) VALUES `
	countValues = "(?,?,?)"
	countArgs   = 3
	countUpsert = ` ON CONFLICT (user_id, status) DO UPDATE SET n = n + excluded.n`
)

// countPayment moves the user's count of payments in status by delta when
// this transaction's batch commits.
func (tx *Tx) countPayment(userID, status string, delta int64) {
	if tx.counts == nil {
		tx.counts = map[countKey]int64{}
	}
	tx.counts[countKey{userID, status}] += delta
}

// addCounts keeps a successful transaction's count deltas for the batch.
func (c *committer) addCounts(tx *Tx) {
	for k, d := range tx.counts {
		if c.counts == nil {
			c.counts = map[countKey]int64{}
		}
		c.counts[k] += d
	}
}

// flushCounts writes the batch's net count changes.
func (c *committer) flushCounts(sqlTx *sql.Tx) error {
	defer clear(c.counts)
	args := make([]any, 0, countArgs*len(c.counts))
	for k, d := range c.counts {
		if d != 0 {
			args = append(args, k.userID, k.status, d)
		}
	}
	return insertRows(context.Background(), sqlTx, countInsert, countValues, countUpsert, countArgs, args)
}
