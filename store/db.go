// Package store owns the SQLite database: schema, transactions and one file
// per aggregate. It imports no project package except the leaf domain
// packages. How writes are made fast (group commit, WAL sync, statement
// cache) is store/internal/sqlitex's business; the files here are plain
// SQL on a Tx.
package store

import (
	"context"
	"database/sql"
	"errors"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivertype"

	"github.com/payoutd/payoutd/store/internal/sqlitex"
)

// Inserter enqueues a River job inside a store transaction, so a job exists
// only if the state change that caused it commits.
type Inserter interface {
	InsertTx(ctx context.Context, tx *sql.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
}

// ErrNestedTx is WithTx called inside another transaction's function.
var ErrNestedTx = sqlitex.ErrNestedTx

// DB is the application's handle on one SQLite file.
type DB struct {
	x    *sqlitex.DB
	r    *sql.DB // the read pool
	Path string
	// clock is what Now reads; SetClock swaps it, safely while workers run.
	clock atomic.Pointer[func() time.Time]

	lock *FileLock // released by Close
	// payoutObserver hears of every committed payout move (ObservePayouts).
	payoutObserver func(PayoutMove)
	jobs           Inserter
	reader         jobReader     // River's client on the read pool (river_read.go)
	completed      completedJobs // jobs completed in their own transactions (river_complete.go)
	notices        notices       // River's notifications in this process (river_notify.go)
	eventHook      EventHook
	keys           keyCache // API keys by the hash of their secret (apikey_cache.go)
	// What the committer remembers between batches, all touched only on
	// its goroutine and forgotten together (forget).
	head     auditHead
	hooks    hookCache
	accounts accountCache
	settings settingsCache
	batch    batchRows
}

// Open locks the file as its server (Lock with Serve), opens it, creating
// it if needed, and applies the schema.
func Open(ctx context.Context, path, schema string) (*DB, error) {
	l, err := Lock(path, Serve)
	if err != nil {
		return nil, err
	}
	db, err := l.Open(ctx, schema)
	if err != nil {
		l.Release()
	}
	return db, err
}

// open opens the file for writing and, with a schema, migrates it.
func open(ctx context.Context, path, schema string) (*DB, error) {
	db := &DB{Path: path}
	x, err := sqlitex.Open(ctx, path, sqlitex.Hooks{BeforeCommit: db.batch.flush, Forget: db.forget})
	if err != nil {
		return nil, err
	}
	db.x, db.r = x, x.Reader()
	if schema == "" {
		return db, nil
	}
	if err := db.migrate(ctx, schema); err != nil {
		x.Close()
		return nil, err
	}
	return db, nil
}

// newDB wraps a read-only file.
func newDB(path string, x *sqlitex.DB) *DB {
	return &DB{Path: path, x: x, r: x.Reader()}
}

// Now is the database's clock: every transaction's time comes from it.
func (db *DB) Now() time.Time {
	if f := db.clock.Load(); f != nil {
		return (*f)()
	}
	return time.Now().UTC()
}

// SetClock makes Now answer f (nil: the system clock again). Tests move
// time with it; it may be called while workers and requests run.
func (db *DB) SetClock(f func() time.Time) {
	if f == nil {
		db.clock.Store(nil)
		return
	}
	db.clock.Store(&f)
}

// RiverClient is River's client on the database's write connection. The
// alias keeps database/sql (River's transaction type) inside store.
type RiverClient = river.Client[*sql.Tx]

// NewRiverClient builds River's client on the write connection, where River
// runs its own short transactions between the committer's batches, and
// makes it the inserter of every transaction's jobs (Tx.Enqueue).
func (db *DB) NewRiverClient(cfg *river.Config) (*RiverClient, error) {
	client, err := river.NewClient(db.riverDriver(), cfg)
	if err != nil {
		return nil, err
	}
	db.jobs = client
	return client, nil
}

// jobReader is River's client on the read pool, for listing jobs: it
// starts nothing and inserts nothing (the read pool is query-only).
type jobReader struct {
	once   sync.Once
	client *river.Client[*sql.Tx]
	err    error
}

func (db *DB) jobLister() (*river.Client[*sql.Tx], error) {
	r := &db.reader
	r.once.Do(func() {
		r.client, r.err = river.NewClient(riversqlite.New(db.r), &river.Config{
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	})
	return r.client, r.err
}

// riverDriver is River's driver on the write connection.
func (db *DB) riverDriver() riverdriver.Driver[*sql.Tx] {
	return &riverDriver{Driver: riversqlite.New(db.x.Writer()), done: &db.completed, hub: &db.notices}
}

// CommitStats is what the group committer has done since the file was
// opened: how many SQLite transactions (Batches) carried how many logical
// ones (Transactions), how long they held the write connection (Busy), and,
// while MeasureWriterCPU is on, the writer thread's own CPU time in them
// (WriterCPU: unlike Busy it leaves out what a shared machine's hypervisor
// took away).
// Latency is how long each write transaction took from WithTx to its
// answer, the wait for its batch and the WAL fsync included (seconds), and
// BatchSize how many transactions each commit carried.
type CommitStats struct {
	Batches, Transactions int64
	// Statements is how many statements the write connection ran, River's,
	// BEGIN and COMMIT included.
	Statements         int64
	Busy, WriterCPU    time.Duration
	Latency, BatchSize Histogram
}

// Histogram is a distribution as Prometheus reads one: Counts[i]
// observations at most Bounds[i] (cumulative), and the Count and Sum of
// all of them.
type Histogram struct {
	Bounds []float64
	Counts []uint64
	Count  uint64
	Sum    float64
}

func histogramOf(h *sqlitex.Histogram) Histogram {
	var out Histogram
	out.Bounds, out.Counts, out.Count, out.Sum = h.Snapshot()
	return out
}

// CommitStats returns the committer's counters so far.
func (db *DB) CommitStats() CommitStats {
	s := db.x.Stats()
	return CommitStats{Batches: s.Batches.Load(), Transactions: s.Transactions.Load(), Statements: db.x.Statements(),
		Busy: time.Duration(s.BusyNanos.Load()), WriterCPU: time.Duration(s.CPUNanos.Load()),
		Latency: histogramOf(s.Latency), BatchSize: histogramOf(s.BatchSize)}
}

// MeasureWriterCPU turns the measurement of CommitStats.WriterCPU on or
// off; it costs two system calls per batch.
func (db *DB) MeasureWriterCPU(on bool) { db.x.Stats().MeasureCPU.Store(on) }

// Close stops the committer, closes both pools and then releases the
// file's lock; closing again does nothing.
func (db *DB) Close() error {
	err := db.x.Close()
	return errors.Join(err, db.lock.Release())
}

// forget drops everything remembered about the file (the audit chain's
// head, users without webhook endpoints, ledger account ids, rows waiting
// for the batch's end): another process wrote it, or a batch's writes
// never landed.
func (db *DB) forget() {
	db.head.ok = false
	db.hooks.forget()
	db.accounts.forget()
	db.settings.forget(settingsKYC | settingsProfiles | settingsPolicies)
	db.batch.reset()
}

// Tx is a write transaction with the clock fixed at its start, so every row
// it writes carries the same timestamp.
type Tx struct {
	x         *sqlitex.Tx
	ctx       context.Context
	now       time.Time
	jobs      Inserter
	eventHook EventHook
	head      *auditHead
	hooks     *hookCache
	accounts  *accountCache
	learnt    map[accountKey]string // account ids this transaction found or made
	// Actor and RequestID label the audit rows this transaction writes.
	Actor     string
	RequestID string
	credit    postedCredit // see postSettlement
	rateAsOf  recordedRate // see RecordRateAsOf
	// payoutObserver is the DB's; moves are what observeMove kept for it.
	payoutObserver func(PayoutMove)
	moves          []PayoutMove
	completed      []int64            // River jobs this transaction completed (CompleteJob)
	counts         map[countKey]int64 // payment_counts deltas, see counts.go
	// auditRows, eventRows and noticeRows are written with the batch's
	// (log_rows.go).
	auditRows, eventRows, noticeRows []any
	searchRows                       []any                      // payment_search rows, written with the batch's too
	held                             *heldPayment               // see payment_row.go
	balances, drawn                  map[balanceKey]balanceMove // see ledger_balances.go
	batch                            *batchRows
	broken                           error // a held row or balance that could not be written
	keysWritten                      bool  // a statement wrote api_keys (apikey_cache.go)
	checkLate                        bool  // CheckMovesLate (payment_row.go)
	settings                         *settingsCache
	learntSettings                   settingsLearnt // settings_cache.go
}

// WithTx runs fn as one atomic transaction and returns once it is durable.
// Inside fn only tx may be used; a nested WithTx fails with ErrNestedTx.
// fn may run more than once (when a transaction it was batched with
// fails): each run must start from its inputs, set rather than add to
// what it hands out, and leave effects outside the database (output,
// requests) until WithTx has returned.
func (db *DB) WithTx(ctx context.Context, fn func(tx *Tx) error, opts ...TxOption) error {
	var moves []PayoutMove // of the run that committed
	var completed []int64
	var keysWritten bool
	err := db.x.WithTx(ctx, func(xt *sqlitex.Tx) error {
		moves, completed = nil, nil
		tx := &Tx{x: xt, ctx: xt.Context(), now: db.Now().UTC().Truncate(time.Millisecond), jobs: db.jobs, eventHook: db.eventHook,
			payoutObserver: db.payoutObserver, Actor: "system", head: &db.head, hooks: &db.hooks, accounts: &db.accounts, batch: &db.batch,
			settings: &db.settings}
		for _, o := range opts {
			o(tx)
		}
		head, ok := db.head, false
		defer func() {
			// Any run's key write is forgotten, committed or not: a
			// forget too many costs one read.
			keysWritten = keysWritten || tx.keysWritten
			if !ok {
				db.head = head // its audit rows are dropped with it
				db.batch.restoreBalances(tx)
			}
		}()
		if err := fn(tx); err != nil {
			return err
		}
		if err := tx.releasePayment(); err != nil {
			return err
		}
		if tx.broken != nil {
			return tx.broken
		}
		ok = true
		db.accounts.learn(tx.learnt)
		db.settings.learn(tx.learntSettings)
		db.batch.add(tx)
		moves, completed = tx.moves, tx.completed
		return nil
	})
	if keysWritten {
		db.keys.forget()
	}
	if err == nil {
		if len(completed) > 0 {
			db.completed.add(completed)
		}
		for _, m := range moves {
			db.payoutObserver(m)
		}
	}
	return err
}

// Now is the transaction's timestamp.
func (tx *Tx) Now() time.Time { return tx.now }

// release writes what the transaction holds back (a payment row, balance
// moves) before a statement that names its table. Once such a write has
// failed, every later statement is refused: SQLite may have rolled the
// whole transaction back, and a statement run after that would commit on
// its own.
func (tx *Tx) release(query string) error {
	if tx.broken != nil {
		return tx.broken
	}
	if err := tx.releasePaymentFor(query); err != nil {
		return err
	}
	return tx.releaseBalancesFor(query)
}

// rowScanner is one row's result, or the error that kept its statement from
// running.
type rowScanner interface{ Scan(dest ...any) error }

type failedRow struct{ err error }

func (r failedRow) Scan(...any) error { return r.err }

// exec runs a statement in the transaction.
func (tx *Tx) exec(query string, args ...any) (sql.Result, error) {
	if err := tx.release(query); err != nil {
		return nil, err
	}
	tx.noteKeyWrite(query)
	tx.noteSettingsWrite(query)
	res, err := tx.x.ExecContext(tx.ctx, query, args...)
	if err != nil {
		return nil, tx.checkHeld(err)
	}
	return res, nil
}

// queryRow runs a query that returns at most one row in the transaction.
func (tx *Tx) queryRow(query string, args ...any) rowScanner {
	if err := tx.release(query); err != nil {
		return failedRow{err}
	}
	return tx.x.QueryRowContext(tx.ctx, query, args...)
}

// query runs a query in the transaction.
func (tx *Tx) query(query string, args ...any) (*sql.Rows, error) {
	if err := tx.release(query); err != nil {
		return nil, err
	}
	return tx.x.QueryContext(tx.ctx, query, args...)
}

// Enqueue inserts a River job in this transaction.
func (tx *Tx) Enqueue(args river.JobArgs, opts *river.InsertOpts) error {
	if tx.jobs == nil {
		return errors.New("store: no job inserter (open the database with app.Open)")
	}
	if tx.broken != nil {
		return tx.broken // see Tx.release
	}
	_, err := tx.jobs.InsertTx(tx.ctx, tx.x.SQL(), args, opts)
	return err
}

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
