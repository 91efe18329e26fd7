package sqlitex

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"time"
)

// The committer's statements skip database/sql. Inside a transaction
// database/sql adds, to every Exec, a lock on the transaction and one on
// the connection, a reflective conversion of each argument and a wrapped
// result, a visible share of the committer's profile for statements that
// are themselves small. The committer owns
// its transaction's connection from BEGIN to COMMIT and runs every
// statement on its own goroutine, so it can hand them to the connection's
// statement cache (stmt_cache.go) itself. Anything the fast path does not
// know — an argument of another type, a query, River's inserts — still
// goes through database/sql on the same transaction.

// connProbeKey marks the context of the committer's first statement of a
// batch; the connection that runs it records itself there (stmt_cache.go).
type connProbeKey struct{}

type connProbe struct{ conn *cachingConn }

// directExecer runs statements on the batch's connection when the
// committer knows it, and through database/sql (on the same transaction)
// otherwise or for an argument type directArgs does not know. The
// committer's own statements (savepoints, the batch's logs and counts) and
// every Tx's ExecContext use one.
type directExecer struct {
	conn  *cachingConn
	sqlTx *sql.Tx
	// args is the committer's one buffer for converted arguments: every
	// statement runs on the committer goroutine and the driver has bound
	// them by the time it returns, so one buffer serves every statement
	// of every transaction and none grows a buffer of its own.
	args *[]driver.NamedValue
}

func (e *directExecer) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if e.conn != nil {
		if nv, ok := directArgs(args, (*e.args)[:0]); ok {
			*e.args = nv
			return e.conn.ExecContext(ctx, query, nv)
		}
	}
	return e.sqlTx.ExecContext(ctx, query, args...)
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
