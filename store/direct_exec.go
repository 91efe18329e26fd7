package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"time"
)

// The committer's statements skip database/sql. Inside a transaction
// database/sql adds, to every Exec, a lock on the transaction and one on
// the connection, a reflective conversion of each argument and a wrapped
// result: 2.7 % of the committer's samples in the pipeline's profile, for
// statements that themselves take 10–150 µs. The committer owns
// its transaction's connection from BEGIN to COMMIT and runs every
// statement on its own goroutine, so it can hand them to the connection's
// statement cache (stmt_cache.go) itself. Anything the fast path does not
// know — an argument of another type, a query, River's inserts — still
// goes through database/sql on the same transaction.

// connProbeKey marks the context of the committer's first statement of a
// batch; the connection that runs it records itself there (stmt_cache.go).
type connProbeKey struct{}

type connProbe struct{ conn *cachingConn }

// ExecContext runs a statement in the transaction, like sql.Tx's.
func (tx *Tx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if tx.conn != nil {
		if nv, ok := directArgs(args, tx.argBuf[:0]); ok {
			tx.argBuf = nv
			return tx.conn.ExecContext(ctx, query, nv)
		}
	}
	return tx.Tx.ExecContext(ctx, query, args...)
}

// directArgs converts args as database/sql would for the types the store
// passes; ok is false for any other type, which database/sql then
// converts (driver.Valuer, pointers, named types).
func directArgs(args []any, buf []driver.NamedValue) (nv []driver.NamedValue, ok bool) {
	for i, a := range args {
		switch v := a.(type) {
		case nil, int64, float64, bool, []byte, string, time.Time:
		case int:
			a = int64(v)
		default:
			return buf, false
		}
		buf = append(buf, driver.NamedValue{Ordinal: i + 1, Value: a})
	}
	return buf, true
}

// batchExecer runs the committer's own batch-wide statements (the batch's
// logs and counts) on the batch's connection when it is known.
func batchExecer(conn *cachingConn, sqlTx *sql.Tx) execer {
	if conn == nil {
		return sqlTx
	}
	return connExecer{conn}
}

type connExecer struct{ conn *cachingConn }

func (e connExecer) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	nv, ok := directArgs(args, make([]driver.NamedValue, 0, len(args)))
	if !ok {
		return nil, fmt.Errorf("store: batch statement argument of an unexpected type")
	}
	return e.conn.ExecContext(ctx, query, nv)
}

// directExec runs one of the committer's savepoint statements on the
// batch's connection when it is known.
func directExec(conn *cachingConn, sqlTx *sql.Tx, query string) error {
	var err error
	if conn != nil {
		_, err = conn.ExecContext(context.Background(), query, nil)
	} else {
		_, err = sqlTx.Exec(query)
	}
	return err
}
