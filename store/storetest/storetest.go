// Package storetest is raw SQL for tests outside store/: arranging a state
// no API call makes (an expired key, a tampered audit row, a full disk) and
// checking what no API shows (row counts, ledger sums); and River's jobs,
// read and arranged through River's client and driver (river.go).
// Production code never imports it; store's imports test checks that.
package storetest

import (
	"context"
	"database/sql"
	"testing"

	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	_ "modernc.org/sqlite" // the "sqlite" driver for Open

	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/store/internal/testdoor"
)

// DB is raw SQL on one database.
type DB struct {
	conn testdoor.Conn
}

// New is raw SQL on db, opened in this process: statements run in a store
// transaction on its write connection, queries on its read pool.
func New(db *store.DB) *DB { return &DB{conn: testdoor.Of(db)} }

// Open is raw SQL on the database file at path, which another process (a
// started payoutd) may have open; the connection closes when the test ends.
func Open(t testing.TB, path string) *DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return &DB{conn: plain{db}}
}

// TraceWrites calls fn with the text of every statement db's write
// connection runs from now on, River's, BEGIN and COMMIT included, until
// the test ends.
func TraceWrites(t testing.TB, db *store.DB, fn func(query string)) {
	testdoor.TraceWrites(db, fn)
	t.Cleanup(func() { testdoor.TraceWrites(db, nil) })
}

// Exec runs a statement and commits it.
func (d *DB) Exec(query string, args ...any) (sql.Result, error) {
	return d.conn.Exec(context.Background(), query, args...)
}

// Setting changes a connection setting outside any transaction, on the
// write connection of a database opened in this process: PRAGMA
// query_only = 1 makes every write of the store's fail as on a read-only
// disk, and = 0 (which a write transaction could no longer run) ends it.
func (d *DB) Setting(query string) error {
	return d.conn.Setting(context.Background(), query)
}

// QueryRow runs a query that returns at most one row.
func (d *DB) QueryRow(query string, args ...any) *sql.Row {
	return d.conn.QueryRow(context.Background(), query, args...)
}

// Query runs a query.
func (d *DB) Query(query string, args ...any) (*sql.Rows, error) {
	return d.conn.Query(context.Background(), query, args...)
}

// plain is a database/sql pool of its own on a file.
type plain struct{ db *sql.DB }

func (p plain) Exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return p.db.ExecContext(ctx, query, args...)
}

func (p plain) Setting(ctx context.Context, query string) error {
	_, err := p.db.ExecContext(ctx, query)
	return err
}

func (p plain) QueryRow(ctx context.Context, query string, args ...any) *sql.Row {
	return p.db.QueryRowContext(ctx, query, args...)
}

func (p plain) Query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return p.db.QueryContext(ctx, query, args...)
}

func (p plain) River() riverdriver.Executor { return riversqlite.New(p.db).GetExecutor() }
