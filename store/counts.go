package store

import (
	"context"

	"github.com/payoutd/payoutd/store/internal/sqlitex"
)

// Maintained counts move once per batch. payment_counts (GET /payments's
// totals) and row_counts (the totals of the audit log, event and FIRA
// lists) change with every transaction that adds or moves a row; upserting
// them per transaction would hit the same few rows on the single writer
// once per payout. Instead a transaction adds its deltas up in memory; when
// it succeeds they join the batch's, and the committer writes the batch's
// net change with one statement per table just before COMMIT. The counts commit
// in the same SQLite transaction as the rows they count, so no reader ever
// sees them apart; if that statement fails, the whole batch fails. Nothing
// reads the counts inside a transaction.

// countTable is a table of maintained counts.
type countTable uint8

const (
	paymentCounts countTable = iota // (user_id, status): payments per status
	rowCounts                       // (user_id, kind): rows per list, see row_counts.go
)

// countInserts are each table's multi-row upsert (see insertRows).
var countInserts = [...]struct{ prefix, suffix string }{
	paymentCounts: {`INSERT INTO payment_counts (user_id, status, n) VALUES `, ` ON CONFLICT (user_id, status) DO UPDATE SET n = n + excluded.n`},
	rowCounts:     {`INSERT INTO row_counts (user_id, kind, n) VALUES `, ` ON CONFLICT (user_id, kind) DO UPDATE SET n = n + excluded.n`},
}

const (
	countValues = "(?,?,?)"
	countArgs   = 3
)

type countKey struct {
	table       countTable
	userID, key string
}

// count moves a maintained count by delta when this transaction's batch
// commits.
func (tx *Tx) count(table countTable, userID, key string, delta int64) {
	if tx.counts == nil {
		tx.counts = map[countKey]int64{}
	}
	tx.counts[countKey{table, userID, key}] += delta
}

// countPayment moves the user's count of payments in status by delta.
func (tx *Tx) countPayment(userID, status string, delta int64) {
	tx.count(paymentCounts, userID, status, delta)
}

// flushCounts writes the batch's net count changes.
func flushCounts(ex sqlitex.Execer, counts map[countKey]int64) error {
	var args [len(countInserts)][]any
	for k, d := range counts {
		if d != 0 {
			args[k.table] = append(args[k.table], k.userID, k.key, d)
		}
	}
	for table, a := range args {
		in := countInserts[table]
		if err := insertRows(context.Background(), ex, in.prefix, countValues, in.suffix, countArgs, a); err != nil {
			return err
		}
	}
	return nil
}
