package store

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/matryer/is"
)

// TestMigrateVersion8 builds a version-7 file (today's schema without
// version 8's payment columns, holding a payout), opens it twice, and
// checks that the payout reads with no memo type and no attention, and can
// be flagged.
func TestMigrateVersion8(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v7.db")
	db, err := Open(ctx, path, todaysSchema(t))
	is.NoErr(err)
	_, err = db.x.Writer().Exec(`
		INSERT INTO users VALUES ('usr_1', 'a@example.com', 1, 1);
		INSERT INTO payments (id, user_id, livemode, txn_id, type, status, amount, currency, destination_address, memo,
		  created_at, updated_at) VALUES ('pay_1', 'usr_1', 1, 't1', 'SEND', 'UNKNOWN', 100, 'USD', 'GDEST', '0042', 1, 1);
		ALTER TABLE payments DROP COLUMN memo_type;
		ALTER TABLE payments DROP COLUMN attention;
		ALTER TABLE payments DROP COLUMN attention_at;
		PRAGMA user_version = 7;`)
	is.NoErr(err)
	is.NoErr(db.Close())

	for range 2 { // the second open finds the current version and does nothing
		db, err = Open(ctx, path, todaysSchema(t))
		is.NoErr(err)
		var version int
		is.NoErr(db.r.QueryRow("PRAGMA user_version").Scan(&version))
		is.Equal(version, SchemaVersion)
		p, err := db.LoadPayment(ctx, "pay_1")
		is.NoErr(err)
		is.Equal(p.Memo, "0042")
		is.Equal(p.MemoType, "") // the memo decides, as before version 8
		is.Equal(p.Attention, "")
		is.NoErr(db.Close())
	}
	db, err = Open(ctx, path, todaysSchema(t))
	is.NoErr(err)
	defer db.Close()
	withoutRiver(db) // flagging emits payout.needs_attention
	err = db.WithTx(ctx, func(tx *Tx) error {
		ok, err := tx.FlagPayment("pay_1", StatusUnknown, "JOB_FAILED: test")
		is.True(ok)
		return err
	})
	is.NoErr(err)
	p, err := db.LoadPayment(ctx, "pay_1")
	is.NoErr(err)
	is.Equal(p.Attention, "JOB_FAILED: test")
	is.True(p.AttentionAt != nil)
}
