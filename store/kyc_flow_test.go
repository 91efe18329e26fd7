package store

import (
	"context"
	"os"
	"path/filepath"
	"slices"
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
		u, _, err = tx.EnsureUser("kyc@example.com", false, "Asha Rao", sealer)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return db, u, &now
}

var allKYCStatuses = []string{KYCPending, KYCInProgress, KYCDocsSubmitted, KYCUnderReview, KYCApproved, KYCRejected}

// TestMoveKYCMatrix tries every (from, to) pair: the moves of the KYC graph
// succeed with one audit row and one kyc.updated event in the same
// transaction; every other pair is ERR_INVALID_STATE and changes nothing.
func TestMoveKYCMatrix(t *testing.T) {
	db, u, _ := openKYCTestDB(t)
	legal := map[string]bool{
		"PENDING>IN_PROGRESS": true, "IN_PROGRESS>DOCS_SUBMITTED": true, "DOCS_SUBMITTED>UNDER_REVIEW": true,
		"UNDER_REVIEW>APPROVED": true, "UNDER_REVIEW>REJECTED": true, "REJECTED>DOCS_SUBMITTED": true,
	}
	froms := append(slices.Clone(allKYCStatuses), "REJECTED(exhausted)")
	for _, from := range froms {
		for _, to := range allKYCStatuses {
			t.Run(from+">"+to, func(t *testing.T) {
				is := is.New(t)
				status, attempts := from, 0
				if from == "REJECTED(exhausted)" {
					status, attempts = KYCRejected, MaxKYCAttempts
				}
				_, err := db.x.Writer().Exec("UPDATE kyc SET status = ?, attempts = ? WHERE user_id = ?", status, attempts, u.ID)
				is.NoErr(err)
				count := func(table string) (n int) {
					is.NoErr(db.r.QueryRow("SELECT count(*) FROM "+table+" WHERE user_id = ?", u.ID).Scan(&n))
					return n
				}
				audits, events := count("audit_log"), count("events")
				var k KYC
				err = db.WithTx(context.Background(), func(tx *Tx) error {
					cur, err := tx.KYCStatus(u.ID)
					if err != nil {
						return err
					}
					k, err = tx.moveKYC(cur, false, to, "why")
					return err
				})
				after, rerr := db.KYCStatus(context.Background(), u.ID)
				is.NoErr(rerr)
				if legal[status+">"+to] && attempts < MaxKYCAttempts {
					is.NoErr(err)
					is.Equal(after.Status, to)
					is.Equal(k.Status, to)
					is.Equal(count("audit_log"), audits+1)
					is.Equal(count("events"), events+1)
					wantAttempts := 0
					if status == KYCRejected {
						wantAttempts = 1 // a resubmission is counted
					}
					is.Equal(after.Attempts, wantAttempts)
					is.Equal(after.Reason != "", to == KYCRejected) // a reason only on REJECTED
					return
				}
				is.Equal(apperr.Code(err), apperr.ErrInvalidState)
				is.Equal(after.Status, status)
				is.Equal(count("audit_log"), audits)
				is.Equal(count("events"), events)
			})
		}
	}
}

// TestSandboxProviderPace: the sandbox provider takes DOCS_SUBMITTED to
// UNDER_REVIEW after SandboxReviewPickup and decides SandboxReviewDecide
// later; REJECT in the name rejects.
func TestSandboxProviderPace(t *testing.T) {
	for _, c := range []struct{ name, want string }{{"Asha Rao", KYCApproved}, {"Asha reject-me", KYCRejected}} {
		t.Run(c.want, func(t *testing.T) {
			is := is.New(t)
			db, u, now := openKYCTestDB(t)
			// review is one run of the review job: the status it leaves and
			// how long it snoozes until the next step.
			review := func() (string, time.Duration) {
				var k KYC
				var wait time.Duration
				is.NoErr(db.WithTx(context.Background(), func(tx *Tx) (err error) { k, wait, err = tx.SandboxKYCReview(u.ID); return err }))
				return k.Status, wait
			}
			advance := func() string { s, _ := review(); return s }
			due := func() bool {
				d, err := db.sandboxKYCDue(context.Background(), *now, u.ID)
				is.NoErr(err)
				return d
			}
			_, err := db.x.Writer().Exec("UPDATE kyc SET status = 'DOCS_SUBMITTED', full_name = ?, updated_at = ? WHERE user_id = ?", c.name, ms(*now), u.ID)
			is.NoErr(err)
			is.True(!due())
			status, wait := review()
			is.Equal(status, KYCDocsSubmitted) // not yet due
			is.Equal(wait, SandboxReviewPickup)

			*now = now.Add(SandboxReviewPickup)
			is.True(due())
			status, wait = review()
			is.Equal(status, KYCUnderReview)
			is.Equal(wait, SandboxReviewDecide)
			is.Equal(advance(), KYCUnderReview)

			*now = now.Add(SandboxReviewDecide - time.Millisecond)
			status, wait = review()
			is.Equal(status, KYCUnderReview)
			is.Equal(wait, time.Millisecond)
			*now = now.Add(time.Millisecond)
			status, wait = review()
			is.Equal(status, c.want)
			is.Equal(wait, time.Duration(0))
			is.Equal(advance(), c.want) // nothing further
		})
	}
}

func TestSandboxDecision(t *testing.T) {
	for _, c := range []struct {
		id   KYCIdentity
		want bool
	}{
		{KYCIdentity{FullName: "Asha Rao", PAN: "ABCPE1234F"}, true},
		{KYCIdentity{FullName: "REJECT", PAN: "ABCPE1234F"}, false},
		{KYCIdentity{FullName: "Mr Rejected", PAN: "ABCPE1234F"}, false},
		{KYCIdentity{FullName: "Asha Rao", PAN: "REJECT1234"}, false},
	} {
		ok, reason := SandboxDecision(c.id)
		if ok != c.want || (reason == "") != c.want {
			t.Errorf("SandboxDecision(%+v) = %v, %q; want %v", c.id, ok, reason, c.want)
		}
	}
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
