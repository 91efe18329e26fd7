package store

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"sync"
)

// Audit rows and events are written when their transaction ends, several
// to one INSERT. A payout's settling transaction appends six audit rows
// and five events; one statement per row paid, six and five times over,
// for opening cursors on the table and its indexes and walking each from
// the root. Nothing reads these tables inside a transaction (the chain's
// head is kept in memory; when it is not, Audit reads it from rows earlier
// transactions have flushed), so the rows wait in the Tx and flushLogs
// inserts them, in the order they were made, before the savepoint is
// released; if the insert fails, the transaction fails with it.

// maxRowsPerInsert bounds one statement's rows (and so its parameters).
const maxRowsPerInsert = 16

const (
	auditInsert = `INSERT INTO audit_log
		(seq, at, user_id, livemode, actor, action, resource_type, resource_id, request_id, changes, prev_hash, hash) VALUES `
	auditValues = "(?,?,?,?,?,?,?,?,?,?,?,?)"
	auditArgs   = 12
	eventInsert = `INSERT INTO events (id, user_id, livemode, type, resource_id, data, created_at) VALUES `
	eventValues = "(?,?,?,?,?,?,?)"
	eventArgs   = 7
)

// multiInsert holds the statements insertRows has built, one per row
// count, so each stays one prepared statement.
var multiInsert sync.Map // prefix + n + suffix → statement

// execer is a transaction that runs statements: a store Tx, or the
// committer's *sql.Tx.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// insertRows inserts rows of cols values each, in order, up to
// maxRowsPerInsert per statement: prefix + "(?,…),(?,…)" + suffix.
func insertRows(ctx context.Context, ex execer, prefix, values, suffix string, cols int, args []any) error {
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

// flushLogs writes the transaction's pending audit rows and events.
func (tx *Tx) flushLogs() error {
	if err := insertRows(tx.ctx, tx, auditInsert, auditValues, "", auditArgs, tx.auditRows); err != nil {
		return err
	}
	tx.auditRows = nil
	if err := insertRows(tx.ctx, tx, eventInsert, eventValues, "", eventArgs, tx.eventRows); err != nil {
		return err
	}
	tx.eventRows = nil
	return nil
}
