package store

import (
	"context"
	"errors"
	"testing"
)

// withoutWebhooks installs an event hook that fans nothing out: store's own
// tests run without River, and an unwired database refuses events.
func withoutWebhooks(db *DB) *DB {
	db.SetEventHook(func(*Tx, Event) error { return nil })
	return db
}

// TestUnwiredEventRefused: on a database nobody wired (no event hook), a
// transaction that writes an event fails and leaves nothing behind, rather
// than writing an event no webhook will ever hear of.
func TestUnwiredEventRefused(t *testing.T) {
	db, sealer := openTestDB(t)
	u := testUser(t, db, sealer)
	db.SetEventHook(nil)
	err := db.WithTx(context.Background(), func(tx *Tx) error {
		_, err := tx.SandboxWalkKYC(u.ID, true, "")
		return err
	})
	if !errors.Is(err, errNoEventHook) {
		t.Fatalf("got %v, want %v", err, errNoEventHook)
	}
	k, err := db.KYCStatus(context.Background(), u.ID)
	if err != nil {
		t.Fatal(err)
	}
	if k.Status != KYCPending {
		t.Fatalf("KYC moved to %s without its event", k.Status)
	}
}
