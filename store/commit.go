package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Group commit. A durable SQLite commit costs an fsync (about 0.5 ms here,
// ~2,000 commits/s), so one commit per request caps the whole service at the
// disk's fsync rate. Instead one goroutine owns the write connection: it
// takes every transaction waiting at that moment, runs each inside its own
// SAVEPOINT (so each still commits or rolls back alone), and makes them
// durable with one COMMIT. A caller's WithTx returns only after that commit,
// so an acknowledged write is as durable as before; under load many callers
// share one fsync, and a lone caller pays no extra wait.

// maxBatch bounds how many transactions share one commit, so a burst cannot
// hold the write connection (and River) for long.
const maxBatch = 256

// lingerYields is how often the committer yields to let more callers join a
// batch under load, so more transactions share one commit.
const lingerYields = 2

type txRequest struct {
	ctx  context.Context
	fn   func(*Tx) error
	opts []TxOption
	done chan error
	tx   *Tx
	err  error
}

type committer struct {
	db   *DB
	reqs chan *txRequest
	quit chan struct{}
	wg   sync.WaitGroup
	once sync.Once

	lastBatch int                // size of the previous batch: linger only under load
	counts    map[countKey]int64 // the batch's count deltas (counts.go)
	// the batch's audit rows and events (log_rows.go)
	auditRows, eventRows []any
	dataVersion          int64
	stats                CommitStats

	synced  chan []*txRequest // committed batches waiting for the WAL fsync
	ckpt    *checkpointer
	walPath string
	wal     *os.File // the syncer's handle on the WAL file
	// broken is the first failed WAL fsync: every later write fails with
	// it, see wal_sync.go.
	broken atomic.Pointer[error]
}

// CommitStats counts group commits: how many SQLite transactions carried how
// many logical ones, and how long the write connection was held for them.
type CommitStats struct {
	Batches, Transactions atomic.Int64
	BusyNanos             atomic.Int64
	// With MeasureCPU set (the bench), CPUNanos adds up the writer
	// thread's own CPU time during batches: unlike BusyNanos it leaves out
	// the time a shared machine's hypervisor took away.
	MeasureCPU atomic.Bool
	CPUNanos   atomic.Int64
}

// CommitStats returns the committer's counters (bench reports them).
func (db *DB) CommitStats() *CommitStats { return &db.group.stats }

func startCommitter(db *DB, walPath string, ckpt *checkpointer) *committer {
	c := &committer{db: db, reqs: make(chan *txRequest), quit: make(chan struct{}),
		synced: make(chan []*txRequest, syncBacklog), walPath: walPath, ckpt: ckpt}
	c.wg.Add(2)
	go c.loop()
	go c.syncLoop()
	return c
}

func (c *committer) stop() {
	c.once.Do(func() { close(c.quit) })
	c.wg.Wait()
	c.ckpt.stop()
	if c.wal != nil {
		c.wal.Close()
	}
}

// WithTx runs fn as one atomic transaction and returns once it is durable.
// Inside fn only tx may be used: the write pool has a single connection, so
// a nested WithTx or a query on db.W would wait for itself.
func (db *DB) WithTx(ctx context.Context, fn func(tx *Tx) error, opts ...TxOption) error {
	r := &txRequest{ctx: ctx, fn: fn, opts: opts, done: make(chan error, 1)}
	select {
	case db.group.reqs <- r:
	case <-ctx.Done():
		return ctx.Err()
	case <-db.group.quit:
		return fmt.Errorf("store: database is closed")
	}
	// Once handed over the transaction may commit, so wait for the verdict
	// even if ctx ends: reporting failure for a write that landed would lie.
	return <-r.done
}

func (c *committer) loop() {
	defer c.wg.Done()
	defer close(c.synced)
	for {
		var first *txRequest
		select {
		case first = <-c.reqs:
		case <-c.quit:
			return
		}
		batch := []*txRequest{first}
		for yields := 0; len(batch) < maxBatch; {
			select {
			case r := <-c.reqs:
				batch = append(batch, r)
				continue
			default:
			}
			if yields == lingerYields || len(batch) == 1 && c.lastBatch <= 1 {
				break
			}
			yields++
			runtime.Gosched()
		}
		c.lastBatch = len(batch)
		c.run(batch)
	}
}

// run executes a batch in one SQLite transaction and reports to each caller.
func (c *committer) run(batch []*txRequest) {
	if err := c.broken.Load(); err != nil {
		finish(batch, *err)
		return
	}
	if c.stats.MeasureCPU.Load() {
		// Locked for the batch only, so the thread's clock is this
		// goroutine's alone.
		runtime.LockOSThread()
		cpu0 := threadCPU()
		defer func() {
			c.stats.CPUNanos.Add(threadCPU() - cpu0)
			runtime.UnlockOSThread()
		}()
	}
	start := time.Now()
	defer func() {
		c.stats.Batches.Add(1)
		c.stats.Transactions.Add(int64(len(batch)))
		c.stats.BusyNanos.Add(int64(time.Since(start)))
	}()
	sqlTx, err := c.db.W.BeginTx(context.Background(), nil)
	if err != nil {
		finish(batch, fmt.Errorf("begin: %w", err))
		return
	}
	// Another process (the CLI) may have written since our last batch; its
	// commits change data_version, and then the cached audit head is stale.
	// The same statement tells which connection the batch runs on, for
	// direct_exec.go.
	var version int64
	probe := &connProbe{}
	err = sqlTx.QueryRowContext(context.WithValue(context.Background(), connProbeKey{}, probe), "PRAGMA data_version").Scan(&version)
	if err != nil || version != c.dataVersion {
		c.forgetMemories()
		c.dataVersion = version
	}
	ex := &directExecer{conn: probe.conn, sqlTx: sqlTx}
	for _, r := range batch {
		if err := c.runOne(ex, r); err != nil {
			// The savepoint could not be undone: the whole batch is suspect.
			c.abandon(sqlTx, batch, err)
			return
		}
	}
	if err := c.flushLogs(ex); err != nil {
		c.abandon(sqlTx, batch, fmt.Errorf("audit rows and events: %w", err))
		return
	}
	if err := c.flushCounts(ex); err != nil {
		c.abandon(sqlTx, batch, fmt.Errorf("maintained counts: %w", err))
		return
	}
	if err := sqlTx.Commit(); err != nil {
		c.abandon(sqlTx, batch, fmt.Errorf("commit: %w", err))
		return
	}
	c.synced <- batch
	c.ckpt.committed()
}

// abandon fails the whole batch and forgets what its transactions taught
// the committer (after a failed Commit the Rollback is a no-op).
func (c *committer) abandon(sqlTx *sql.Tx, batch []*txRequest, err error) {
	_ = sqlTx.Rollback()
	c.forgetMemories()
	clear(c.counts)
	c.auditRows, c.eventRows = c.auditRows[:0], c.eventRows[:0]
	finish(batch, err)
}

// forgetMemories drops everything the committer remembers about the file
// (the audit chain's head, users without webhook endpoints, ledger account
// ids, settings rows): after another process wrote it, or after a batch
// whose writes never landed.
func (c *committer) forgetMemories() {
	c.db.head.ok = false
	c.db.hooks.forget()
	c.db.accounts.forget()
	c.db.settings.forget()
}

// runOne runs one caller's fn inside a savepoint. Its own failure is its
// result; only a failure to roll the savepoint back is returned.
func (c *committer) runOne(ex *directExecer, r *txRequest) error {
	if err := r.ctx.Err(); err != nil {
		r.err = err
		return nil
	}
	bg := context.Background()
	if _, err := ex.ExecContext(bg, "SAVEPOINT grp"); err != nil {
		return fmt.Errorf("savepoint: %w", err)
	}
	// The statements run without the caller's cancellation (the write
	// connection ignores it anyway, see stmt_cache.go); with a cancellable
	// context database/sql would also start a goroutine to watch every
	// query's rows, on the single writer's path.
	tx := &Tx{Tx: ex.sqlTx, direct: directExecer{conn: ex.conn, sqlTx: ex.sqlTx}, ctx: context.WithoutCancel(r.ctx), now: c.db.Now().UTC().Truncate(time.Millisecond), jobs: c.db.jobs,
		eventHook: c.db.eventHook, Actor: "system", head: &c.db.head, hooks: &c.db.hooks, accounts: &c.db.accounts, settings: &c.db.settings}
	for _, o := range r.opts {
		o(tx)
	}
	head := c.db.head
	r.tx, r.err = tx, protect(tx, r.fn)
	// A tx kept past its fn must not reach the connection directly (outside
	// any transaction once the batch commits); database/sql refuses it.
	tx.direct.conn = nil
	if r.err != nil {
		c.db.head = head // its audit rows are dropped with it
		if _, err := ex.ExecContext(bg, "ROLLBACK TO grp"); err != nil {
			return rollbackFailed(r.err, err)
		}
	} else {
		c.db.accounts.learn(tx.learnt)
		c.db.settings.learn(tx.readSettings)
		c.addCounts(tx)
		c.addLogs(tx)
	}
	if _, err := ex.ExecContext(bg, "RELEASE grp"); err != nil {
		return fmt.Errorf("release savepoint: %w", err)
	}
	return nil
}

// protect turns a panic in fn into an error for its caller alone; the
// committer goroutine must outlive any one transaction's bug.
func protect(tx *Tx, fn func(*Tx) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("store: transaction panicked: %v", p)
		}
	}()
	return fn(tx)
}

func finish(batch []*txRequest, err error) {
	for _, r := range batch {
		r.done <- err
	}
}
