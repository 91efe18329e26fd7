package store

import (
	"context"
	"errors"
	"os"
	"sync"
	"testing"
	"time"
)

// TestGroupCommitIsolatesFailures runs many concurrent transactions, some of
// which fail or panic after writing: only the good ones land, and the audit
// chain (whose head the committer caches) stays intact.
func TestGroupCommitIsolatesFailures(t *testing.T) {
	db, _ := openTestDB(t)
	ctx := context.Background()
	errBoom := errors.New("boom")
	var wg sync.WaitGroup
	results := make([]error, 300)
	for i := range results {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			results[i] = db.WithTx(ctx, func(tx *Tx) error {
				if err := tx.Audit("u", false, "test.write", "test", "r", map[string]int{"i": i}); err != nil {
					return err
				}
				switch i % 3 {
				case 1:
					return errBoom
				case 2:
					panic("bug in a transaction")
				}
				return nil
			})
		}(i)
	}
	wg.Wait()
	ok := 0
	for i, err := range results {
		switch i % 3 {
		case 0:
			if err != nil {
				t.Fatalf("tx %d: %v", i, err)
			}
			ok++
		case 1:
			if !errors.Is(err, errBoom) {
				t.Fatalf("tx %d: want boom, got %v", i, err)
			}
		case 2:
			if err == nil {
				t.Fatalf("tx %d: a panic must fail its transaction", i)
			}
		}
	}
	var rows int
	if err := db.R.QueryRow("SELECT count(*) FROM audit_log WHERE action = 'test.write'").Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if rows != ok {
		t.Fatalf("%d audit rows, want %d (failed transactions must leave none)", rows, ok)
	}
	v, err := db.VerifyAudit(ctx)
	if err != nil || !v.Intact {
		t.Fatalf("audit chain: %+v %v", v, err)
	}
}

// TestAuditLogIsAppendOnly: the triggers refuse updates and deletes.
func TestAuditLogIsAppendOnly(t *testing.T) {
	db, _ := openTestDB(t)
	ctx := context.Background()
	if err := db.WithTx(ctx, func(tx *Tx) error { return tx.Audit("u", false, "a", "t", "r", nil) }); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"UPDATE audit_log SET action = 'x'", "DELETE FROM audit_log"} {
		err := db.WithTx(ctx, func(tx *Tx) error { _, err := tx.ExecContext(ctx, q); return err })
		if err == nil {
			t.Fatalf("%s succeeded on the append-only log", q)
		}
	}
}

// TestUnsyncedCommitIsNotAcknowledged: a batch is answered only after the
// WAL fsync that makes it durable; when that fsync fails the caller hears
// the failure instead of success, and so does every later writer.
func TestUnsyncedCommitIsNotAcknowledged(t *testing.T) {
	db, _ := openTestDB(t)
	ctx := context.Background()
	write := func() error {
		return db.WithTx(ctx, func(tx *Tx) error { return tx.Audit("u", false, "test.sync", "test", "r", nil) })
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
	db, _ := openTestDB(t)
	ctx := context.Background()
	size := func() int64 {
		fi, err := os.Stat(db.Path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	before := size()
	err := db.WithTx(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, "CREATE TABLE blobs (b BLOB)"); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, "INSERT INTO blobs VALUES (zeroblob(200000))")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for size() < before+200000 {
		if time.Now().After(deadline) {
			t.Fatalf("database file still %d bytes (was %d): the commit was not checkpointed", size(), before)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
