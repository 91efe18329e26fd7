package store

import (
	"context"
	"errors"
	"sync"
	"testing"
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
	if err := db.r.QueryRow("SELECT count(*) FROM audit_log WHERE action = 'test.write'").Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if rows != ok {
		t.Fatalf("%d audit rows, want %d (failed transactions must leave none)", rows, ok)
	}
	v, err := db.History().VerifyAudit(ctx)
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
		err := db.WithTx(ctx, func(tx *Tx) error { _, err := tx.exec(q); return err })
		if err == nil {
			t.Fatalf("%s succeeded on the append-only log", q)
		}
	}
}
