// Package store owns the SQLite database: schema, transactions and one file
// per aggregate. It imports no project package except the leaf domain packages.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"modernc.org/sqlite"
)

// Inserter enqueues a River job inside a store transaction, so a job exists
// only if the state change that caused it commits.
type Inserter interface {
	InsertTx(ctx context.Context, tx *sql.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
}

// DB is the application's handle on one SQLite file: one write connection
// shared with River, and a small read pool for GET handlers.
type DB struct {
	W    *sql.DB
	R    *sql.DB
	Path string
	Now  func() time.Time

	jobs      Inserter
	eventHook EventHook
	group     *committer
	head      auditHead
	hooks     hookCache
	accounts  accountCache
	settings  settingsCache
}

// sqliteDriver opens every connection payoutd makes, with its functions.
var sqliteDriver = func() *sqlite.Driver {
	d := &sqlite.Driver{}
	err := d.RegisterFunction("payoutd_settings_changed", &sqlite.FunctionImpl{
		NArgs:  0,
		Scalar: settingsChanged, // settings_cache.go
	})
	if err != nil {
		panic(err) // a fixed, valid registration: cannot fail
	}
	return d
}()

// pragmas are applied on every connection. Durability across power loss
// (an acknowledged payment must never disappear) comes from the committer's
// own WAL fsync before it answers, see store/wal_sync.go.
var pragmas = []string{
	"busy_timeout(10000)",
	"journal_mode(WAL)",
	"foreign_keys(1)",
	"temp_store(MEMORY)",
}

func dsn(path string, readOnly bool) string {
	q := url.Values{}
	for _, p := range pragmas {
		q.Add("_pragma", p)
	}
	// A bigger page cache keeps the hot indexes of a busy file in memory
	// instead of re-reading them through the VFS on every statement: it
	// doubled pipeline throughput (docs/performance.md). The writer gets
	// most; the four readers share the rest of a ~56 MiB budget.
	if readOnly {
		q.Add("_pragma", "query_only(1)")
		q.Add("_pragma", "cache_size(-6144)")
	} else {
		// NORMAL: the committer fsyncs the WAL itself before it
		// acknowledges a batch (store/wal_sync.go), off the connection.
		q.Set("_txlock", "immediate")
		q.Add("_pragma", "synchronous(NORMAL)")
		q.Add("_pragma", "cache_size(-32768)")
	}
	return "file:" + path + "?" + q.Encode()
}

// Open opens (creating if needed) the database file and applies the schema.
func Open(ctx context.Context, path, schema string) (*DB, error) {
	w := sql.OpenDB(&connector{dsn: dsn(path, false), drv: sqliteDriver, uncancellable: true})
	// One writer: SQLite serialises writes anyway, and a second writer
	// connection only turns waiting into SQLITE_BUSY errors.
	w.SetMaxOpenConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	if err := w.PingContext(ctx); err != nil {
		w.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// Durability rests on fsyncing the WAL file (wal_sync.go): refuse a file
	// system where SQLite could not switch to WAL instead of losing commits.
	var mode, file string
	if err := w.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		w.Close()
		return nil, fmt.Errorf("open %s: journal mode %q, payoutd needs WAL (%v)", path, mode, err)
	}
	// The WAL sits beside the file SQLite actually opened (symlinks
	// resolved), which is what it reports here.
	if err := w.QueryRowContext(ctx, "SELECT file FROM pragma_database_list WHERE name = 'main'").Scan(&file); err != nil || file == "" {
		w.Close()
		return nil, fmt.Errorf("open %s: database file: %v", path, err)
	}
	db := &DB{W: w, Path: path, Now: func() time.Time { return time.Now().UTC() }}
	db.group = startCommitter(db, file+"-wal", startCheckpointer(path))
	if err := db.migrate(ctx, schema); err != nil {
		db.group.stop()
		w.Close()
		return nil, err
	}
	r := sql.OpenDB(&connector{dsn: dsn(path, true), drv: sqliteDriver})
	// Busy readers starve the single writer, so the read pool stays small.
	r.SetMaxOpenConns(4)
	r.SetMaxIdleConns(4)
	db.R = r
	return db, nil
}

// SetInserter wires the River client in once it exists (River needs the
// workers, the workers need the DB).
func (db *DB) SetInserter(i Inserter) { db.jobs = i }

// Close stops the committer and closes both pools.
func (db *DB) Close() error {
	db.group.stop()
	return errors.Join(db.R.Close(), db.W.Close())
}

// Tx is a write transaction with the clock fixed at its start, so every row
// it writes carries the same timestamp.
type Tx struct {
	*sql.Tx
	// direct runs ExecContext, skipping database/sql on the batch's
	// connection when the committer knows it (direct_exec.go).
	direct    directExecer
	ctx       context.Context
	now       time.Time
	jobs      Inserter
	eventHook EventHook
	head      *auditHead
	hooks     *hookCache
	accounts  *accountCache
	learnt    map[accountKey]string // account ids this transaction found or made
	settings  *settingsCache
	// readSettings are the settings rows this transaction read.
	readSettings map[settingKey]settingRead
	// Actor and RequestID label the audit rows this transaction writes.
	Actor     string
	RequestID string
	credit    postedCredit       // see PostSettlement
	counts    map[countKey]int64 // payment_counts deltas, see payment_counts.go
	// auditRows and eventRows wait for the batch's flushLogs (log_rows.go).
	auditRows, eventRows []any
	// After runs once the transaction has committed (in-memory bookkeeping
	// only; never I/O that must not be lost).
	after []func()
}

// Now is the transaction's timestamp.
func (tx *Tx) Now() time.Time { return tx.now }

// Context is the transaction's context.
func (tx *Tx) Context() context.Context { return tx.ctx }

// Enqueue inserts a River job in this transaction.
func (tx *Tx) Enqueue(args river.JobArgs, opts *river.InsertOpts) error {
	if tx.jobs == nil {
		return errors.New("store: no job inserter configured")
	}
	_, err := tx.jobs.InsertTx(tx.ctx, tx.Tx, args, opts)
	return err
}

// OnCommit registers f to run after a successful commit.
func (tx *Tx) OnCommit(f func()) { tx.after = append(tx.after, f) }

// TxOption labels a transaction.
type TxOption func(*Tx)

// WithActor sets the audit actor and request id of a transaction.
func WithActor(actor, requestID string) TxOption {
	return func(tx *Tx) { tx.Actor, tx.RequestID = actor, requestID }
}

// ms converts a time to the integer milliseconds stored in every timestamp column.
func ms(t time.Time) int64 { return t.UnixMilli() }

// fromMS converts stored milliseconds back to UTC time.
func fromMS(v int64) time.Time { return time.UnixMilli(v).UTC() }

// nullMS converts a nullable timestamp column.
func nullMS(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := fromMS(v.Int64)
	return &t
}
