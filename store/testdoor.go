package store

import (
	"context"
	"database/sql"

	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riversqlite"

	"github.com/payoutd/payoutd/store/internal/testdoor"
)

// Tests outside store/ that must arrange or inspect what no store function
// shows do it through store/storetest, which reaches the database here.
func init() {
	testdoor.Of = func(db any) testdoor.Conn { return rawSQL{db.(*DB)} }
	testdoor.TraceWrites = func(db any, fn func(string)) { db.(*DB).x.TraceWrites(fn) }
}

type rawSQL struct{ db *DB }

// Exec runs the statement in a store transaction, on the write connection
// (so a connection setting such as max_page_count applies to the store's
// own writes).
func (r rawSQL) Exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	var res sql.Result
	err := r.db.WithTx(ctx, func(tx *Tx) (err error) {
		res, err = tx.exec(query, args...)
		return err
	})
	return res, err
}

// Setting runs the statement on the write connection between the
// committer's batches, outside any transaction: a connection setting that
// must change even while every write transaction fails (query_only).
func (r rawSQL) Setting(ctx context.Context, query string) error {
	_, err := r.db.x.Writer().ExecContext(ctx, query)
	return err
}

func (r rawSQL) QueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	return r.db.r.QueryRowContext(ctx, query, args...)
}

func (r rawSQL) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return r.db.r.QueryContext(ctx, query, args...)
}

// River is riversqlite's own executor on the write connection, where River
// runs its statements, without the completions store's driver leaves out.
func (r rawSQL) River() riverdriver.Executor {
	return riversqlite.New(r.db.x.Writer()).GetExecutor()
}
