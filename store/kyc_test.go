package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/apperr"
)

// openKYCTestDB opens a fresh database with one sandbox user and a clock
// the test moves by hand.
func openKYCTestDB(t *testing.T) (*DB, User, *time.Time) {
	t.Helper()
	schema, err := os.ReadFile(filepath.Join("..", "schema.sql"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	db, err := Open(context.Background(), filepath.Join(dir, "kyc.db"), string(schema))
	if err != nil {
		t.Fatal(err)
	}
	withoutRiver(db)
	t.Cleanup(func() { db.Close() })
	now := time.Date(2026, 4, 1, 10, 0, 0, 0, time.UTC)
	db.SetClock(func() time.Time { return now })
	sealer, err := LoadOrCreateMasterKey(filepath.Join(dir, "master.key"))
	if err != nil {
		t.Fatal(err)
	}
	var u User
	err = db.WithTx(context.Background(), func(tx *Tx) (err error) {
		u, _, err = tx.People().EnsureUser("kyc@example.com", false, "Asha Rao", sealer)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return db, u, &now
}

// TestRecordKYCMove: the store writes the move it is handed, whatever the
// move (which moves are allowed is the kyc package's rule), with one audit
// row and one kyc.updated event carrying the moves allowed next; a move
// from a status the record no longer has is ErrInvalidState and writes
// nothing.
func TestRecordKYCMove(t *testing.T) {
	is := is.New(t)
	db, u, now := openKYCTestDB(t)
	ctx := context.Background()
	count := func(table string) (n int) {
		is.NoErr(db.r.QueryRow("SELECT count(*) FROM "+table+" WHERE user_id = ?", u.ID).Scan(&n))
		return n
	}
	before, err := db.People().KYCStatus(ctx, u.ID)
	is.NoErr(err)
	audits, events := count("audit_log"), count("events")
	*now = now.Add(time.Minute)
	to := KYC{UserID: u.ID, Status: KYCApproved, Attempts: 2, Reason: "handed"}
	var got KYC
	is.NoErr(db.WithTx(ctx, func(tx *Tx) (err error) {
		got, err = tx.People().RecordKYCMove(KYCMove{From: before, To: to, AllowedNext: []string{"X"}})
		return err
	}))
	after, err := db.People().KYCStatus(ctx, u.ID)
	is.NoErr(err)
	is.Equal(after, got)
	is.Equal(after.Status, KYCApproved)
	is.Equal(after.Attempts, 2)
	is.Equal(after.Reason, "handed")
	is.True(after.UpdatedAt.Equal(*now))
	is.Equal(count("audit_log"), audits+1)
	is.Equal(count("events"), events+1)
	var data string
	is.NoErr(db.r.QueryRow("SELECT data FROM events WHERE user_id = ? AND type = 'kyc.updated'", u.ID).Scan(&data))
	is.True(strings.Contains(data, `"previousStatus":"PENDING"`))
	is.True(strings.Contains(data, `"allowedTransitions":["X"]`))

	err = db.WithTx(ctx, func(tx *Tx) error { // before is stale now
		_, err := tx.People().RecordKYCMove(KYCMove{From: before, To: KYC{UserID: u.ID, Status: KYCRejected}})
		return err
	})
	is.Equal(apperr.Code(err), apperr.ErrInvalidState)
	again, err := db.People().KYCStatus(ctx, u.ID)
	is.NoErr(err)
	is.Equal(again, after)
	is.Equal(count("audit_log"), audits+1)
	is.Equal(count("events"), events+1)
}

// TestWebSessions: the scs store finds live sessions only and sweeps the
// expired ones on commit.
func TestWebSessions(t *testing.T) {
	is := is.New(t)
	db, _, now := openKYCTestDB(t)
	ws := WebSessions{DB: db}
	ctx := context.Background()
	is.NoErr(ws.CommitCtx(ctx, "a", []byte("one"), now.Add(time.Hour)))
	b, found, err := ws.FindCtx(ctx, "a")
	is.NoErr(err)
	is.True(found)
	is.Equal(string(b), "one")
	_, found, err = ws.FindCtx(ctx, "missing")
	is.NoErr(err)
	is.True(!found)
	is.NoErr(ws.CommitCtx(ctx, "b", []byte("two"), now.Add(2*time.Hour)))
	*now = now.Add(90 * time.Minute)
	_, found, err = ws.FindCtx(ctx, "a")
	is.NoErr(err)
	is.True(!found) // expired
	is.NoErr(ws.CommitCtx(ctx, "b", []byte("three"), now.Add(time.Hour)))
	var n int
	is.NoErr(db.r.QueryRow("SELECT count(*) FROM sessions").Scan(&n))
	is.Equal(n, 1) // "a" was swept
	is.NoErr(ws.DeleteCtx(ctx, "b"))
	is.NoErr(ws.DeleteCtx(ctx, "b")) // deleting twice is fine
	// julianday compatibility with scs's sqlite3store layout.
	is.NoErr(ws.CommitCtx(ctx, "c", []byte("x"), time.Date(2000, 1, 1, 12, 0, 0, 0, time.UTC)))
	var jd float64
	is.NoErr(db.r.QueryRow("SELECT expiry - julianday('2000-01-01 12:00:00') FROM sessions WHERE token = 'c'").Scan(&jd))
	is.True(jd < 1e-6 && jd > -1e-6)
}
