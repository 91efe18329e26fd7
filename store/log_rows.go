package store

import (
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

// multiInsert returns the statement inserting n rows, built once per n so
// each stays one prepared statement.
var multiInsert sync.Map // prefix + n → statement

func insertFor(prefix, values string, n int) string {
	key := prefix + strconv.Itoa(n)
	if q, ok := multiInsert.Load(key); ok {
		return q.(string)
	}
	q := prefix + strings.TrimSuffix(strings.Repeat(values+",", n), ",")
	multiInsert.Store(key, q)
	return q
}

// flushLogs writes the transaction's pending audit rows and events.
func (tx *Tx) flushLogs() error {
	if err := tx.insertRows(auditInsert, auditValues, auditArgs, tx.auditRows); err != nil {
		return err
	}
	tx.auditRows = nil
	if err := tx.insertRows(eventInsert, eventValues, eventArgs, tx.eventRows); err != nil {
		return err
	}
	tx.eventRows = nil
	return nil
}

func (tx *Tx) insertRows(prefix, values string, cols int, args []any) error {
	for len(args) > 0 {
		n := min(len(args)/cols, maxRowsPerInsert)
		if _, err := tx.ExecContext(tx.ctx, insertFor(prefix, values, n), args[:n*cols]...); err != nil {
			return err
		}
		args = args[n*cols:]
	}
	return nil
}
