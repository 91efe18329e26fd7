package sqlitex

import (
	"context"
	"database/sql/driver"
	"sync/atomic"
)

// What the write connection runs is counted, statement by statement,
// River's included: the single writer's statements are what bounds the
// pipeline, so their number per payout is a figure to hold (a test counts
// one payout's) and a tracer can name them.

// writeStatements counts and traces the write connection's statements.
type writeStatements struct {
	n     atomic.Int64
	trace atomic.Pointer[func(query string)]
}

func (w *writeStatements) note(query string) {
	if w == nil {
		return
	}
	w.n.Add(1)
	if f := w.trace.Load(); f != nil {
		(*f)(query)
	}
}

// Statements is how many statements the write connection has run,
// BEGIN and COMMIT included.
func (db *DB) Statements() int64 {
	if db.writes == nil {
		return 0
	}
	return db.writes.n.Load()
}

// TraceWrites calls fn with the text of every statement the write
// connection runs from now on (nil: no longer). fn runs on the writer's
// path and must be quick.
func (db *DB) TraceWrites(fn func(query string)) {
	if db.writes == nil {
		return
	}
	if fn == nil {
		db.writes.trace.Store(nil)
		return
	}
	db.writes.trace.Store(&fn)
}

// countedTx notes the end of a transaction begun on the write connection.
type countedTx struct {
	driver.Tx
	w *writeStatements
}

func (t countedTx) Commit() error {
	t.w.note("COMMIT")
	return t.Tx.Commit()
}

func (t countedTx) Rollback() error {
	t.w.note("ROLLBACK")
	return t.Tx.Rollback()
}

func (c *cachingConn) beginCounted(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	c.writes.note("BEGIN")
	tx, err := c.Conn.(driver.ConnBeginTx).BeginTx(ctx, opts)
	if err != nil || c.writes == nil {
		return tx, err
	}
	return countedTx{Tx: tx, w: c.writes}, nil
}
