package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"testing"

	"github.com/matryer/is"
	"modernc.org/sqlite"
)

// TestSettingsCacheSeesEveryChange: the committer remembers KYC, profile and
// sequestration policy rows, yet every read sees the latest committed row:
// after a change through the store, a raw statement, another process's
// write (seen through data_version), and never a rolled-back transaction's
// own change.
func TestSettingsCacheSeesEveryChange(t *testing.T) {
	is := is.New(t)
	db, sealer := openTestDB(t)
	ctx := context.Background()
	var u User
	is.NoErr(db.WithTx(ctx, func(tx *Tx) error {
		var err error
		u, _, err = tx.EnsureUser("cache@example.com", false, "Asha Rao", sealer)
		return err
	}))
	type view struct {
		kyc, name string
		rate      int64
	}
	read := func() (v view) {
		t.Helper()
		is.NoErr(db.WithTx(ctx, func(tx *Tx) error {
			k, err := tx.KYCStatus(u.ID)
			if err != nil {
				return err
			}
			p, err := tx.findProfile(u.ID)
			if err != nil {
				return err
			}
			pol, err := tx.SequestrationPolicy(u.ID)
			v = view{k.Status, p.Name, pol.RateBP}
			return err
		}))
		return v
	}
	is.Equal(read(), view{"PENDING", "Asha Rao", 0})
	is.Equal(read(), view{"PENDING", "Asha Rao", 0}) // remembered

	// Through the store.
	name := "Asha R."
	is.NoErr(db.WithTx(ctx, func(tx *Tx) error {
		if _, err := tx.UpdateProfile(u.ID, false, ProfilePatch{Name: &name}); err != nil {
			return err
		}
		_, err := tx.SetSequestrationPolicy(u.ID, false, true, 1250, "on_settlement")
		return err
	}))
	is.Equal(read(), view{"PENDING", "Asha R.", 1250})

	// A raw statement on the write connection.
	_, err := db.W.Exec("UPDATE kyc SET status = 'APPROVED' WHERE user_id = ?", u.ID)
	is.NoErr(err)
	is.Equal(read(), view{"APPROVED", "Asha R.", 1250})

	// Another process: its connection has the trigger function (as every
	// payoutd has) but cannot move this process's counter; the committer
	// learns of its commit from data_version.
	otherDriver := &sqlite.Driver{}
	is.NoErr(otherDriver.RegisterFunction("payoutd_settings_changed", &sqlite.FunctionImpl{
		Scalar: func(*sqlite.FunctionContext, []driver.Value) (driver.Value, error) { return nil, nil }}))
	other := sql.OpenDB(&connector{dsn: dsn(dbPath(t, db), false), drv: otherDriver})
	before := settingsChanges.Load()
	_, err = other.Exec(`UPDATE sequestration_policies SET rate_bp = 500 WHERE user_id = ?`, u.ID)
	is.NoErr(err)
	is.NoErr(other.Close())
	is.Equal(settingsChanges.Load(), before)
	is.Equal(read(), view{"APPROVED", "Asha R.", 500})

	// A transaction that read its own change and rolled back.
	boom := errors.New("boom")
	err = db.WithTx(ctx, func(tx *Tx) error {
		if _, err := tx.SetSequestrationPolicy(u.ID, false, true, 9900, "on_settlement"); err != nil {
			return err
		}
		pol, err := tx.SequestrationPolicy(u.ID)
		is.NoErr(err)
		is.Equal(pol.RateBP, int64(9900)) // it sees its own change
		return boom
	})
	is.True(errors.Is(err, boom))
	is.Equal(read(), view{"APPROVED", "Asha R.", 500})
}

func dbPath(t *testing.T, db *DB) string {
	t.Helper()
	var seq int
	var name, file string
	if err := db.R.QueryRow("SELECT seq, name, file FROM pragma_database_list WHERE name = 'main'").Scan(&seq, &name, &file); err != nil {
		t.Fatal(err)
	}
	return file
}
