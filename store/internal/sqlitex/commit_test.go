package sqlitex

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/payoutd/payoutd/internal/wait"
)

// openTest opens a fresh file with one table, t(v), for the committer's
// tests.
func openTest(t testing.TB) *DB {
	t.Helper()
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "x.db"), Hooks{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func createT(t testing.TB, db *DB) {
	t.Helper()
	err := db.WithTx(context.Background(), func(tx *Tx) error {
		_, err := tx.ExecContext(tx.Context(), "CREATE TABLE t (v INTEGER NOT NULL)")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func countT(t testing.TB, db *DB) int {
	t.Helper()
	var n int
	if err := db.r.QueryRow("SELECT count(*) FROM t").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// insertT inserts v into t, inside tx.
func insertT(tx *Tx, v any) error {
	_, err := tx.ExecContext(tx.Context(), "INSERT INTO t VALUES (?)", v)
	return err
}

// writeBlob commits a row of n zero bytes to the table blobs, made on first
// use.
func writeBlob(t testing.TB, db *DB, n int) {
	t.Helper()
	err := db.WithTx(context.Background(), func(tx *Tx) error {
		if _, err := tx.ExecContext(tx.Context(), "CREATE TABLE IF NOT EXISTS blobs (b BLOB)"); err != nil {
			return err
		}
		_, err := tx.ExecContext(tx.Context(), "INSERT INTO blobs VALUES (zeroblob(?))", n)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// fileSize is the size of the file at path.
func fileSize(t testing.TB, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// inOneBatch holds the committer while n transactions, fn(0) … fn(n-1),
// queue up, then lets them run together and returns their results.
func inOneBatch(t *testing.T, db *DB, n int, fn func(i int, tx *Tx) error) []error {
	t.Helper()
	ctx := context.Background()
	hold, held := make(chan struct{}), make(chan struct{})
	go db.WithTx(ctx, func(*Tx) error { close(held); <-hold; return nil })
	<-held
	results := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = db.WithTx(ctx, func(tx *Tx) error { return fn(i, tx) })
		}()
	}
	wait.Parked(t, 30*time.Second, n, "select", "sqlitex.(*DB).WithTx") // all wait for the held batch
	close(hold)
	wg.Wait()
	return results
}

// TestNestedWithTxFailsFast: WithTx called inside a transaction's function
// would wait for the committer that is running it; it fails at once
// instead, and the outer transaction can go on.
func TestNestedWithTxFailsFast(t *testing.T) {
	db := openTest(t)
	createT(t, db)
	ctx := context.Background()
	done := make(chan error, 1)
	go func() {
		done <- db.WithTx(ctx, func(tx *Tx) error {
			inner := db.WithTx(ctx, func(*Tx) error { return nil })
			if !errors.Is(inner, ErrNestedTx) {
				return errors.New("nested WithTx did not fail with ErrNestedTx")
			}
			return insertT(tx, 1)
		})
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("nested WithTx deadlocked")
	}
	if n := countT(t, db); n != 1 {
		t.Fatalf("%d rows, want 1", n)
	}
}

// TestFailedCommitRetriesMembersAlone: one transaction of a batch leaves a
// deferred foreign-key violation, which only COMMIT detects and which fails
// the whole batch. The committer runs the members again one by one: the
// culprit fails alone, every other caller succeeds.
func TestFailedCommitRetriesMembersAlone(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	err := db.WithTx(ctx, func(tx *Tx) error {
		for _, q := range []string{
			"CREATE TABLE parent (id INTEGER PRIMARY KEY)",
			"CREATE TABLE child (parent_id INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)",
			"CREATE TABLE t (v INTEGER NOT NULL)",
		} {
			if _, err := tx.ExecContext(ctx, q); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	const n = 20
	before := db.Stats().Batches.Load()
	results := inOneBatch(t, db, n, func(i int, tx *Tx) error {
		q := "INSERT INTO t VALUES (1)"
		if i == 7 {
			q = "INSERT INTO child VALUES (42)" // no parent 42: fails at COMMIT
		}
		_, err := tx.ExecContext(ctx, q)
		return err
	})
	for i, err := range results {
		if i == 7 && err == nil {
			t.Fatal("the transaction that broke the commit succeeded")
		}
		if i != 7 && err != nil {
			t.Fatalf("transaction %d failed for another's violation: %v", i, err)
		}
	}
	if got := countT(t, db); got != n-1 {
		t.Fatalf("%d rows, want %d", got, n-1)
	}
	// The held batch, then the twenty together (retried one by one inside
	// the same run): had they not shared a batch, nothing was tested.
	if b := db.Stats().Batches.Load() - before; b > 3 {
		t.Fatalf("%d batches: the twenty did not share one", b)
	}
}

// TestUnsyncedCommitIsNotAcknowledged: a batch is answered only after the
// WAL fsync that makes it durable; when that fsync fails the caller hears
// the failure instead of success, and so does every later writer.
func TestUnsyncedCommitIsNotAcknowledged(t *testing.T) {
	db := openTest(t)
	createT(t, db)
	ctx := context.Background()
	write := func() error {
		return db.WithTx(ctx, func(tx *Tx) error { return insertT(tx, 1) })
	}
	if err := write(); err != nil {
		t.Fatal(err)
	}
	// The syncer's WAL handle is closed under it: its next fsync fails.
	if err := db.group.wal.Close(); err != nil {
		t.Fatal(err)
	}
	if err := write(); err == nil {
		t.Fatal("a write whose WAL fsync failed was acknowledged")
	}
	// Even once an fsync would succeed again, the committer stays closed:
	// the frames the failed fsync covered may never reach the disk.
	db.group.wal = nil
	if err := write(); err == nil {
		t.Fatal("a write after a failed WAL fsync was acknowledged")
	}
}

// TestCheckpointsRunInTheBackground: a commit far below SQLite's automatic
// checkpoint threshold still reaches the database file soon, copied there by
// the background checkpointer rather than by the writer.
func TestCheckpointsRunInTheBackground(t *testing.T) {
	db := openTest(t)
	createT(t, db)
	before := fileSize(t, db.path)
	writeBlob(t, db, 200000)
	wait.For(t, 30*time.Second, func() error {
		if got := fileSize(t, db.path); got < before+200000 {
			return fmt.Errorf("database file still %d bytes (was %d): the commit was not checkpointed", got, before)
		}
		return nil
	})
}

// TestFailedMemberRerunsTheBatch: a batch runs without savepoints, so when
// one of its transactions fails after writing, the batch is rolled back
// and run again with a savepoint around each: the failure's writes are
// undone, its caller hears its error, every other caller succeeds, and
// their functions ran twice. The batches right after keep their
// savepoints, so their functions run once. A lone failing transaction
// leaves nothing.
func TestFailedMemberRerunsTheBatch(t *testing.T) {
	db := openTest(t)
	createT(t, db)
	ctx := context.Background()
	boom := errors.New("boom")

	for _, wantRuns := range []int{2, 1} {
		const n = 20
		runs := make([]int, n) // written only on the committer's goroutine
		results := inOneBatch(t, db, n, func(i int, tx *Tx) error {
			runs[i]++
			if err := insertT(tx, i); err != nil {
				return err
			}
			if i == 7 {
				return boom
			}
			return nil
		})
		for i, err := range results {
			if i == 7 && !errors.Is(err, boom) {
				t.Fatalf("the failing transaction answered %v, want boom", err)
			}
			if i != 7 && err != nil {
				t.Fatalf("transaction %d failed for another's error: %v", i, err)
			}
		}
		// The batch runs in arrival order, so only the failing member is
		// sure to have run bare before the guarded rerun.
		if runs[7] != wantRuns {
			t.Fatalf("the failing transaction ran %d times, want %d (runs %v)", runs[7], wantRuns, runs)
		}
	}
	var seven int
	if err := db.r.QueryRow("SELECT count(*) FROM t WHERE v = 7").Scan(&seven); err != nil {
		t.Fatal(err)
	}
	if got := countT(t, db); got != 38 || seven != 0 {
		t.Fatalf("%d rows (%d of the failed transactions), want 38 and none", got, seven)
	}

	err := db.WithTx(ctx, func(tx *Tx) error {
		if err := insertT(tx, 100); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("lone failing transaction: %v, want boom", err)
	}
	if n := countT(t, db); n != 38 {
		t.Fatalf("%d rows after a lone failing transaction, want 38", n)
	}
}

// TestWriterLeavesCheckpointsToTheBackground: with the background
// checkpoints stopped, a commit that takes the WAL past SQLite's default of
// 1,000 pages leaves the database file as it was: the writer, which every
// waiting caller waits for, does not copy and fsync pages in its place.
func TestWriterLeavesCheckpointsToTheBackground(t *testing.T) {
	db := openTest(t)
	createT(t, db)
	db.group.ckpt.stop()
	before := fileSize(t, db.path)
	for range 3 { // ~1,500 pages in all
		writeBlob(t, db, 2000000)
	}
	after, wal := fileSize(t, db.path), fileSize(t, db.path+"-wal")
	if after != before || wal < 1000*4096 {
		t.Errorf("database file %d → %d bytes, WAL %d bytes: want the file unchanged and the pages still in the WAL", before, after, wal)
	}
}
