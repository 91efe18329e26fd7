package store

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"sync"
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
// were made, just before COMMIT (flushLogs). If that fails, the whole
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
)

// multiInsert holds the statements insertRows has built, one per row
// count, so each stays one prepared statement.
var multiInsert sync.Map // prefix + n + suffix → statement

// execer is a transaction that runs statements: a store Tx, or the
// committer's directExecer.
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

// addLogs keeps a successful transaction's audit rows and events for the
// batch.
func (c *committer) addLogs(tx *Tx) {
	c.auditRows = append(c.auditRows, tx.auditRows...)
	c.eventRows = append(c.eventRows, tx.eventRows...)
}

// flushLogs writes the batch's audit rows and events.
func (c *committer) flushLogs(ex execer) error {
	defer func() { c.auditRows, c.eventRows = c.auditRows[:0], c.eventRows[:0] }()
	if err := insertRows(context.Background(), ex, auditInsert, auditValues, "", auditArgs, c.auditRows); err != nil {
		return err
	}
	return insertRows(context.Background(), ex, eventInsert, eventValues, "", eventArgs, c.eventRows)
}
