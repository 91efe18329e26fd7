package sqlitex

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Group commit. A durable SQLite commit costs an fsync, so one commit per
// request caps the whole service at the disk's fsync rate. Instead one
// goroutine owns the write connection: it takes every transaction waiting
// at that moment, runs them one after another in one SQLite transaction,
// and makes them durable with one COMMIT. A caller's WithTx returns only
// after that commit, so an acknowledged write is as durable as with a
// commit of its own; under load many callers share one fsync, and a lone
// caller pays no extra wait.
//
// Each transaction still commits or rolls back alone. A SAVEPOINT around
// each would undo just the one that fails, but SQLite then copies every
// page a transaction touches before it changes it, a large share of the
// writer's work. So a batch runs without savepoints, and if one of its
// transactions fails the whole batch is rolled back and run again, each
// inside its own savepoint; the next carefulBatches batches keep them, so
// a stream of failing requests does not have every batch run twice. A
// transaction's fn may therefore run more than once: only its last run's
// writes and result count.

// maxBatch bounds how many transactions share one commit, so a burst cannot
// hold the write connection (and River) for long.
const maxBatch = 256

// carefulBatches is how many batches after a failed transaction run with a
// savepoint around each of theirs.
const carefulBatches = 16

// errMemberFailed is a transaction of a batch run without savepoints
// failing: the batch has been rolled back.
var errMemberFailed = errors.New("sqlitex: a transaction of the batch failed")

// ErrNestedTx is WithTx called from inside a transaction's function. The
// committer runs that function, so the inner call would wait for itself
// forever; use the Tx already in hand.
var ErrNestedTx = errors.New("sqlitex: WithTx inside a transaction would deadlock; use the Tx in hand")

type txRequest struct {
	ctx  context.Context
	fn   func(*Tx) error
	done chan error
	tx   *Tx
	err  error
}

type committer struct {
	w     *sql.DB
	hooks Hooks
	reqs  chan *txRequest
	quit  chan struct{}
	wg    sync.WaitGroup
	once  sync.Once
	// goid is the committer goroutine's id and inFn is set while it runs a
	// caller's function: together they catch a nested WithTx.
	goid atomic.Int64
	inFn atomic.Bool

	lastBatch   int           // size of the previous batch: linger only under load
	lingerFor   time.Duration // see batch.go
	linger      *time.Timer   // gather's timer, made once
	careful     int           // batches left to run with savepoints, see carefulBatches
	dataVersion int64
	stats       CommitStats

	args []driver.NamedValue // converted statement arguments, see direct_exec.go

	synced  chan []*txRequest // committed batches waiting for the WAL fsync
	ckpt    *checkpointer
	walPath string
	wal     *os.File // the syncer's handle on the WAL file
	// broken is the first failed WAL fsync: every later write fails with
	// it, see wal_sync.go.
	broken atomic.Pointer[error]
	health writeHealth // see health.go
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
	// Latency is how long WithTx took, from the call to the answer (the
	// wait for a batch and the WAL fsync included), in seconds; BatchSize
	// how many transactions each commit carried.
	Latency, BatchSize *Histogram
}

// Stats returns the committer's counters (the bench reports them).
func (db *DB) Stats() *CommitStats {
	if db.group == nil { // read-only
		return &CommitStats{Latency: newHistogram(commitSeconds...), BatchSize: newHistogram(batchSizes...)}
	}
	return &db.group.stats
}

func startCommitter(w *sql.DB, hooks Hooks, walPath string, ckpt *checkpointer) *committer {
	if hooks.BeforeCommit == nil {
		hooks.BeforeCommit = func(Execer) error { return nil }
	}
	if hooks.Forget == nil {
		hooks.Forget = func() {}
	}
	c := &committer{w: w, hooks: hooks, reqs: make(chan *txRequest), quit: make(chan struct{}),
		synced: make(chan []*txRequest, syncBacklog), walPath: walPath, ckpt: ckpt, lingerFor: lingerFor}
	c.stats.Latency, c.stats.BatchSize = newHistogram(commitSeconds...), newHistogram(batchSizes...)
	c.goid.Store(-1)
	c.wg.Add(2)
	go c.loop()
	go c.syncLoop()
	return c
}

func (c *committer) stop() {
	c.once.Do(func() {
		close(c.quit)
		c.wg.Wait()
		c.ckpt.stop()
		if c.wal != nil {
			c.wal.Close()
		}
	})
}

// WithTx runs fn as one atomic transaction and returns once it is durable.
// Inside fn only tx may be used; WithTx called from inside fn fails at
// once with ErrNestedTx.
func (db *DB) WithTx(ctx context.Context, fn func(tx *Tx) error) error {
	c := db.group
	if c == nil {
		return ErrReadOnly
	}
	if c.inFn.Load() && goid() == c.goid.Load() {
		return ErrNestedTx
	}
	start := time.Now()
	r := &txRequest{ctx: ctx, fn: fn, done: make(chan error, 1)}
	select {
	case c.reqs <- r:
	case <-ctx.Done():
		return ctx.Err()
	case <-c.quit:
		return fmt.Errorf("store: database is closed")
	}
	// Once handed over the transaction may commit, so wait for the verdict
	// even if ctx ends: reporting failure for a write that landed would lie.
	err := <-r.done
	c.stats.Latency.Observe(seconds(time.Since(start)))
	c.health.note(err, c.broken.Load() != nil)
	return err
}

func (c *committer) loop() {
	defer c.wg.Done()
	defer close(c.synced)
	c.goid.Store(goid())
	for {
		var first *txRequest
		select {
		case first = <-c.reqs:
		case <-c.quit:
			return
		}
		batch := c.gather(first)
		c.lastBatch = len(batch)
		c.run(batch)
	}
}

// run executes a batch in one SQLite transaction. If a member fails, the
// batch runs again with savepoints. If the batch as a whole fails (its
// COMMIT, or a savepoint that could not be undone), each member is run
// again in a transaction of its own, so a transaction that broke the batch
// fails alone and the others are not failed for it.
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
		c.stats.BatchSize.Observe(float64(len(batch)))
		c.stats.BusyNanos.Add(int64(time.Since(start)))
	}()
	guarded := len(batch) > 1 && c.careful > 0
	if guarded {
		c.careful--
	}
	err := c.commit(batch, guarded)
	if errors.Is(err, errMemberFailed) {
		c.careful = carefulBatches
		if len(batch) == 1 {
			// Rolled back, a lone transaction has undone exactly its own
			// writes, as its savepoint would have.
			finish(batch, batch[0].err)
			return
		}
		c.hooks.Forget()
		for _, r := range batch {
			r.tx, r.err = nil, nil
		}
		err = c.commit(batch, true)
	}
	if err == nil {
		return
	}
	c.hooks.Forget()
	if len(batch) == 1 {
		finish(batch, err)
		return
	}
	for _, r := range batch {
		r.tx, r.err = nil, nil
		switch err := c.commit([]*txRequest{r}, false); {
		case errors.Is(err, errMemberFailed):
			finish([]*txRequest{r}, r.err)
		case err != nil:
			c.hooks.Forget()
			finish([]*txRequest{r}, err)
		}
	}
}

// commit runs the batch's transactions in one SQLite transaction and, once
// committed, hands the batch to the syncer, which answers its callers.
// Guarded, each runs inside a savepoint; otherwise the first that fails
// rolls the batch back (errMemberFailed). On error nothing of the batch is
// written and nobody has been answered.
func (c *committer) commit(batch []*txRequest, guarded bool) error {
	sqlTx, err := c.w.BeginTx(context.Background(), nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	// Another process (the CLI) may have written since our last batch; its
	// commits change data_version, and then what the hooks learnt is
	// stale. The same statement tells which connection the batch runs on,
	// for direct_exec.go.
	var version int64
	probe := &connProbe{}
	err = sqlTx.QueryRowContext(context.WithValue(context.Background(), connProbeKey{}, probe), "PRAGMA data_version").Scan(&version)
	if err != nil || version != c.dataVersion {
		c.hooks.Forget()
		c.dataVersion = version
	}
	ex := &directExecer{conn: probe.conn, sqlTx: sqlTx, args: &c.args}
	for _, r := range batch {
		if !guarded {
			if c.runFn(ex, r) {
				_ = sqlTx.Rollback()
				return errMemberFailed
			}
			continue
		}
		if err := c.runOne(ex, r); err != nil {
			_ = sqlTx.Rollback()
			return err
		}
		if r.err != nil {
			c.careful = carefulBatches
		}
	}
	if err := c.hooks.BeforeCommit(ex); err != nil {
		_ = sqlTx.Rollback()
		return fmt.Errorf("before commit: %w", err)
	}
	if err := sqlTx.Commit(); err != nil {
		_ = sqlTx.Rollback() // a no-op unless the COMMIT left it open
		return fmt.Errorf("commit: %w", err)
	}
	c.synced <- batch
	c.ckpt.committed()
	return nil
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
	if c.runFn(ex, r) {
		if _, err := ex.ExecContext(bg, "ROLLBACK TO grp"); err != nil {
			return rollbackFailed(r.err, err)
		}
	}
	if _, err := ex.ExecContext(bg, "RELEASE grp"); err != nil {
		return fmt.Errorf("release savepoint: %w", err)
	}
	return nil
}

// runFn runs one caller's fn and reports whether it ran and failed (and
// so may have left writes behind); a caller gone before its turn fails
// without running.
func (c *committer) runFn(ex *directExecer, r *txRequest) (failed bool) {
	if err := r.ctx.Err(); err != nil {
		r.err = err
		return false
	}
	// The statements run without the caller's cancellation (the write
	// connection ignores it anyway, see stmt_cache.go); with a cancellable
	// context database/sql would also start a goroutine to watch every
	// query's rows, on the single writer's path.
	tx := &Tx{sql: ex.sqlTx, direct: directExecer{conn: ex.conn, sqlTx: ex.sqlTx, args: ex.args}, ctx: context.WithoutCancel(r.ctx)}
	c.inFn.Store(true)
	r.tx, r.err = tx, protect(tx, r.fn)
	c.inFn.Store(false)
	// A tx kept past its fn must not reach the connection directly (outside
	// any transaction once the batch commits); database/sql refuses it.
	tx.direct.conn = nil
	return r.err != nil
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

// goid is the calling goroutine's id, read from the head of its stack
// trace ("goroutine 123 [running]:").
func goid() int64 {
	var buf [64]byte
	n := runtime.Stack(buf[:], false)
	var id int64
	for _, b := range buf[len("goroutine "):n] {
		if b < '0' || b > '9' {
			break
		}
		id = id*10 + int64(b-'0')
	}
	return id
}
