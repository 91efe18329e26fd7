package store

import (
	"context"
	"database/sql"
	"errors"
	"testing"

	"github.com/matryer/is"
)

// settingsSeen is a user's KYC status, name and policy rate as one write
// transaction reads them, and how many statements the write connection ran
// for that transaction.
type settingsSeen struct {
	kyc, name  string
	rateBP     int64
	statements int64
}

func readSettings(t *testing.T, db *DB, userID string) settingsSeen {
	t.Helper()
	var s settingsSeen
	before := db.x.Statements()
	err := db.WithTx(context.Background(), func(tx *Tx) error {
		k, err := tx.People().KYCStatus(userID)
		if err != nil {
			return err
		}
		p, err := tx.findProfile(userID)
		if err != nil {
			return err
		}
		pol, err := tx.Payments().SequestrationPolicy(userID)
		s.kyc, s.name, s.rateBP = k.Status, p.Name, pol.RateBP
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	s.statements = db.x.Statements() - before
	return s
}

// TestSettingsRemembered: a user's KYC status, profile and sequestration
// policy, once read on the write connection, are read from memory, and
// every change is seen by the next transaction: made in this process
// (committed, or rolled back), or by another connection to the file.
func TestSettingsRemembered(t *testing.T) {
	is := is.New(t)
	db, sealer := openTestDB(t)
	ctx := context.Background()
	u := testUser(t, db, sealer)
	var empty int64
	{
		before := db.x.Statements()
		is.NoErr(db.WithTx(ctx, func(*Tx) error { return nil }))
		empty = db.x.Statements() - before
	}
	first := readSettings(t, db, u.ID)
	is.Equal(first.statements, empty+3) // three reads
	again := readSettings(t, db, u.ID)
	is.Equal(again, settingsSeen{kyc: KYCPending, statements: empty}) // none: remembered

	// Changed in this process.
	is.NoErr(db.WithTx(ctx, func(tx *Tx) error {
		if _, err := tx.Payments().SetSequestrationPolicy(u.ID, false, true, 1250, "on_settlement"); err != nil {
			return err
		}
		name := "Asha Rao"
		if _, err := tx.People().UpdateProfile(u.ID, false, ProfilePatch{Name: &name}); err != nil {
			return err
		}
		_, err := tx.exec("UPDATE kyc SET status = ? WHERE user_id = ?", KYCApproved, u.ID)
		return err
	}))
	is.Equal(readSettings(t, db, u.ID), settingsSeen{kyc: KYCApproved, name: "Asha Rao", rateBP: 1250, statements: empty + 3})
	is.Equal(readSettings(t, db, u.ID).statements, empty)

	// Changed and read in one transaction, which then rolls back.
	boom := errors.New("boom")
	var inside SequestrationPolicy
	err := db.WithTx(ctx, func(tx *Tx) error {
		if _, err := tx.Payments().SetSequestrationPolicy(u.ID, false, true, 500, "on_settlement"); err != nil {
			return err
		}
		var err error
		if inside, err = tx.Payments().SequestrationPolicy(u.ID); err != nil {
			return err
		}
		return boom
	})
	is.True(errors.Is(err, boom))
	is.Equal(inside.RateBP, int64(500))
	is.Equal(readSettings(t, db, u.ID).rateBP, int64(1250))

	// Changed by another connection to the file.
	other, err := sql.Open("sqlite", "file:"+db.Path+"?_pragma=busy_timeout(10000)")
	is.NoErr(err)
	defer other.Close()
	for _, q := range []string{"UPDATE kyc SET status = 'REJECTED' WHERE user_id = ?", "UPDATE profiles SET name = 'A. Rao' WHERE user_id = ?",
		"UPDATE sequestration_policies SET rate_bp = 777 WHERE user_id = ?"} {
		_, err := other.Exec(q, u.ID)
		is.NoErr(err)
	}
	is.Equal(readSettings(t, db, u.ID), settingsSeen{kyc: KYCRejected, name: "A. Rao", rateBP: 777, statements: empty + 3})
}
