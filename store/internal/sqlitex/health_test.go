package sqlitex

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestWriteHealthTellsDiskFromTransaction: a durable write is Landed; a
// transaction failing on its own account (its error, a constraint) says
// nothing about the disk; a write the file refuses (read-only) and a
// failed WAL fsync are Failed, each with its reason.
func TestWriteHealthTellsDiskFromTransaction(t *testing.T) {
	db := openTest(t)
	createT(t, db)
	ctx := context.Background()
	insert := func(v any) error {
		return db.WithTx(ctx, func(tx *Tx) error { return insertT(tx, v) })
	}
	if h := db.WriteHealth(); h.Landed.IsZero() || !h.Failed.IsZero() {
		t.Fatalf("after a durable write: %+v", h)
	}
	landed := db.WriteHealth().Landed
	if err := db.WithTx(ctx, func(*Tx) error { return errors.New("a rule refused it") }); err == nil {
		t.Fatal("the failing transaction committed")
	}
	if err := insert(nil); err == nil {
		t.Fatal("NOT NULL let a NULL in")
	}
	if h := db.WriteHealth(); !h.Failed.IsZero() || h.Landed != landed {
		t.Fatalf("a transaction's own failure was taken for the disk's: %+v", h)
	}

	if _, err := db.w.ExecContext(ctx, "PRAGMA query_only = 1"); err != nil {
		t.Fatal(err)
	}
	if err := insert(1); err == nil {
		t.Fatal("a write landed on a read-only connection")
	}
	h := db.WriteHealth()
	if h.Failed.IsZero() || !strings.Contains(h.Reason, "read-only") {
		t.Fatalf("a refused write is not a failure of the disk's: %+v", h)
	}
	if _, err := db.w.ExecContext(ctx, "PRAGMA query_only = 0"); err != nil {
		t.Fatal(err)
	}
	if err := insert(2); err != nil {
		t.Fatal(err)
	}
	if h := db.WriteHealth(); !h.Landed.After(h.Failed) {
		t.Fatalf("a write landed after the failure but %+v", h)
	}

	if err := db.group.wal.Close(); err != nil { // its next fsync fails
		t.Fatal(err)
	}
	if err := insert(3); err == nil {
		t.Fatal("an unsynced write was acknowledged")
	}
	if h := db.WriteHealth(); !h.Failed.After(h.Landed) || !strings.Contains(h.Reason, "restart payoutd") {
		t.Fatalf("a failed WAL fsync: %+v", h)
	}
}
