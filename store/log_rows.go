package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/payoutd/payoutd/store/internal/sqlitex"
)

// Audit rows and events are written when their batch ends, many to one
// INSERT. A payout's settling transaction appends six audit rows and five
// events; one statement per row paid, six and five times over, for opening
// cursors on the table and its indexes and walking each from the root, and
// one statement per transaction still paid that for every transaction in
// a group commit. Nothing reads these tables inside a transaction (the
// chain's head is kept in memory; when it is not, Audit reads it from the
// file, and then no earlier transaction of the batch has added a row), so
// a transaction's rows wait in its Tx; when it succeeds they join the
// batch's, and the committer inserts the batch's rows, in the order they
// were made, just before COMMIT (batchRows.flush). If that fails, the whole
// batch fails, as with the maintained counts (counts.go).

// maxRowsPerInsert bounds one statement's rows (and so its parameters).
const maxRowsPerInsert = 32

const (
	auditInsert = `INSERT INTO audit_log
		(seq, at, user_id, livemode, actor, action, resource_type, resource_id, request_id, changes, prev_hash, hash) VALUES `
	auditValues = "(?,?,?,?,?,?,?,?,?,?,?,?)"
	auditArgs   = 12
	eventInsert = `INSERT INTO events (id, user_id, livemode, type, resource_id, data, created_at) VALUES `
	eventValues = "(?,?,?,?,?,?,?)"
	eventArgs   = 7
	// An event's notice is unique by its event (notice.go), so it joins
	// the batch like the event itself.
	noticeInsert = `INSERT INTO notices (id, user_id, livemode, kind, occasion, title, body, link, created_at) VALUES `
	noticeValues = "(?,?,?,?,?,?,?,?,?)"
	noticeArgs   = 9
	// A payout's client name and invoice reference join the search index
	// (schema.sql, payment_search) with the batch.
	searchInsert = `INSERT INTO payment_search (rowid, counterparty_name, invoice_ref) VALUES `
	searchValues = "(?,?,?)"
	searchArgs   = 3
	// searchMerge merges up to 8 pages of the search index's segments,
	// where a level holds four or more (schema.sql, payment_search): done
	// by every batch that adds rows, it keeps pace with what they add.
	searchMerge = `INSERT INTO payment_search (payment_search, rank) VALUES ('merge', 8)`
)

// multiInsert holds the statements insertRows has built, one per row
// count, so each stays one prepared statement.
var multiInsert sync.Map // prefix + n + suffix → statement

// execer is a transaction that runs statements: a store Tx, or the
// committer's directExecer.

// insertRows inserts rows of cols values each, in order, up to
// maxRowsPerInsert per statement: prefix + "(?,…),(?,…)" + suffix.
func insertRows(ctx context.Context, ex sqlitex.Execer, prefix, values, suffix string, cols int, args []any) error {
	for len(args) > 0 {
		n := min(len(args)/cols, maxRowsPerInsert)
		key := prefix + strconv.Itoa(n) + suffix
		q, ok := multiInsert.Load(key)
		if !ok {
			q = prefix + strings.TrimSuffix(strings.Repeat(values+",", n), ",") + suffix
			multiInsert.Store(key, q)
		}
		if _, err := ex.ExecContext(ctx, q.(string), args[:n*cols]...); err != nil {
			return err
		}
		args = args[n*cols:]
	}
	return nil
}

// batchRows is what a batch's transactions leave to be written together
// just before its COMMIT: audit rows, events, notices, search index rows,
// count deltas and balance moves. A transaction's share joins when it
// succeeds (WithTx), and one that writes the pending balance moves early
// takes them out (ledger_balances.go); whenever a batch is rolled back, it
// forgets it all (DB.forget) and its members run again.
type batchRows struct {
	auditRows, eventRows, noticeRows []any
	searchRows                       []any // payment_search (rowid, client name, invoice reference)
	counts                           map[countKey]int64
	balances                         map[balanceKey]balanceMove // see ledger_balances.go
}

func (b *batchRows) add(tx *Tx) {
	b.auditRows = append(b.auditRows, tx.auditRows...)
	b.eventRows = append(b.eventRows, tx.eventRows...)
	b.noticeRows = append(b.noticeRows, tx.noticeRows...)
	b.searchRows = append(b.searchRows, tx.searchRows...)
	for k, d := range tx.counts {
		if b.counts == nil {
			b.counts = map[countKey]int64{}
		}
		b.counts[k] += d
	}
	if len(tx.balances) > 0 {
		addMoves(b.balanceMoves(), tx.balances)
	}
}

func (b *batchRows) reset() {
	b.auditRows, b.eventRows, b.noticeRows, b.searchRows = b.auditRows[:0], b.eventRows[:0], b.noticeRows[:0], b.searchRows[:0]
	clear(b.counts)
	clear(b.balances)
}

// flush writes the batch's rows, in the order they were made, then the
// net count changes and balance moves, then the search index's rows.
func (b *batchRows) flush(ex sqlitex.Execer) error {
	defer b.reset()
	ctx := context.Background()
	if err := insertRows(ctx, ex, auditInsert, auditValues, "", auditArgs, b.auditRows); err != nil {
		return fmt.Errorf("audit rows: %w", err)
	}
	if err := insertRows(ctx, ex, eventInsert, eventValues, "", eventArgs, b.eventRows); err != nil {
		return fmt.Errorf("events: %w", err)
	}
	if err := insertRows(ctx, ex, noticeInsert, noticeValues, "", noticeArgs, b.noticeRows); err != nil {
		return fmt.Errorf("notices: %w", err)
	}
	if err := flushCounts(ex, b.counts); err != nil {
		return fmt.Errorf("maintained counts: %w", err)
	}
	if err := writeBalances(ctx, ex, b.balances); err != nil {
		return fmt.Errorf("account balances: %w", err)
	}
	// Last: FTS5 writes its pending terms out at every statement savepoint
	// after they were added; here they go out once, with a bounded merge.
	if len(b.searchRows) == 0 {
		return nil
	}
	if err := insertRows(ctx, ex, searchInsert, searchValues, "", searchArgs, b.searchRows); err != nil {
		return fmt.Errorf("payment search index: %w", err)
	}
	if _, err := ex.ExecContext(ctx, searchMerge); err != nil {
		return fmt.Errorf("payment search index merge: %w", err)
	}
	return nil
}
