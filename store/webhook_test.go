package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/internal/dbtemplate"
)

// openTestDB opens a fresh database file with the real schema (a copy of
// one migrated once per process).
func openTestDB(t testing.TB) (*DB, *Sealer) {
	t.Helper()
	schema, err := os.ReadFile(filepath.Join("..", "schema.sql"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "test.db")
	dbtemplate.Copy(t, string(schema), path, func(path string) error {
		db, err := Open(context.Background(), path, string(schema))
		if err != nil {
			return err
		}
		return db.Close()
	})
	db, err := Open(context.Background(), path, string(schema))
	if err != nil {
		t.Fatal(err)
	}
	withoutRiver(db)
	t.Cleanup(func() { db.Close() })
	sealer, err := LoadOrCreateMasterKey(filepath.Join(dir, "master.key"))
	if err != nil {
		t.Fatal(err)
	}
	return db, sealer
}

func testUser(t *testing.T, db *DB, sealer *Sealer) User {
	t.Helper()
	var u User
	err := db.WithTx(context.Background(), func(tx *Tx) (err error) {
		u, _, err = tx.People().EnsureUser("hooks@example.com", false, "", sealer)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestRotateWebhookSecretCap: each rotation keeps the replaced secret for
// the grace period, but never more than maxRotatedSecrets of them, so the
// signature header stays short however often a key is rotated.
func TestRotateWebhookSecretCap(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	db, sealer := openTestDB(t)
	u := testUser(t, db, sealer)
	var ep WebhookEndpoint
	is.NoErr(db.WithTx(ctx, func(tx *Tx) (err error) {
		ep, _, err = tx.Webhooks().CreateWebhookEndpoint(WebhookEndpoint{UserID: u.ID, URL: "https://example.com/"}, sealer)
		return err
	}))
	var latest string
	for i := 0; i < 6; i++ {
		is.NoErr(db.WithTx(ctx, func(tx *Tx) (err error) {
			_, latest, err = tx.Webhooks().RotateWebhookSecret(u.ID, ep.ID, sealer)
			return err
		}))
		keys, err := db.Webhooks().WebhookSigningSecrets(ctx, ep.ID, time.Now(), sealer)
		is.NoErr(err)
		is.Equal(len(keys), min(i+2, 1+maxRotatedSecrets))
		is.Equal(FormatWebhookSecret(keys[0]), latest) // the current secret signs first
	}
	// After the grace period only the current secret signs.
	keys, err := db.Webhooks().WebhookSigningSecrets(ctx, ep.ID, time.Now().Add(RotationGrace+time.Second), sealer)
	is.NoErr(err)
	is.Equal(len(keys), 1)
	is.Equal(FormatWebhookSecret(keys[0]), latest)

	// A sealed secret moved to another endpoint's row does not open.
	var other WebhookEndpoint
	is.NoErr(db.WithTx(ctx, func(tx *Tx) (err error) {
		other, _, err = tx.Webhooks().CreateWebhookEndpoint(WebhookEndpoint{UserID: u.ID, URL: "https://example.com/2"}, sealer)
		return err
	}))
	_, err = db.x.Writer().Exec(`UPDATE webhook_secrets SET sealed = (SELECT sealed FROM webhook_secrets WHERE endpoint_id = ? AND expires_at IS NULL)
		WHERE endpoint_id = ?`, ep.ID, other.ID)
	is.NoErr(err)
	_, err = db.Webhooks().WebhookSigningSecrets(ctx, other.ID, time.Now(), sealer)
	is.True(err != nil)
}

// TestEventLogInsertionOrder: the log pages in the order events were
// written, even when a later event's id sorts first (same millisecond), so
// an "after" cursor never skips one.
func TestEventLogInsertionOrder(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	db, sealer := openTestDB(t)
	u := testUser(t, db, sealer)
	// Written in this order; the ids sort the other way round.
	ids := []string{"evt_01zzzzzzzzzzzzzzzzzzzzzzzz", "evt_01aaaaaaaaaaaaaaaaaaaaaaaa", "evt_01mmmmmmmmmmmmmmmmmmmmmmmm"}
	for _, id := range ids {
		is.NoErr(db.WithTx(ctx, func(tx *Tx) error {
			tx.countRow(u.ID, kindEvents, "kyc.updated") // as emit does
			_, err := tx.exec(`INSERT INTO events (id, user_id, livemode, type, data, created_at) VALUES (?,?,0,'kyc.updated','{}',1)`, id, u.ID)
			return err
		}))
	}
	evs, total, err := db.History().EventLog(ctx, EventFilter{UserID: u.ID, Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(total, 3)
	for i, ev := range evs {
		is.Equal(ev.ID, ids[i])
	}
	evs, _, err = db.History().EventLog(ctx, EventFilter{UserID: u.ID, After: ids[0], Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(len(evs), 2)
	is.Equal(evs[0].ID, ids[1])
	_, _, err = db.History().EventLog(ctx, EventFilter{UserID: "usr_other", After: ids[0], Page: 1, Limit: 10})
	is.Equal(apperr.Code(err), apperr.ErrValidation)
}
