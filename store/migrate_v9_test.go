package store

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/matryer/is"
)

// TestMigrateVersion9 builds a version-8 file whose stellar_submissions
// lack version 9's columns and holds an envelope in flight, opens it
// twice, and checks that the columns appear once and the old envelope
// reads with signed ledger 0 (no RPC history covers it, so only the
// account's sequence number can prove it never applied) and still counts
// as a sequence number payoutd used.
func TestMigrateVersion9(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v8.db")
	db, err := Open(ctx, path, todaysSchema(t))
	is.NoErr(err)
	_, err = db.x.Writer().Exec(`
		INSERT INTO users VALUES ('usr_1', 'a@example.com', 1, 1);
		INSERT INTO vaults (id, user_id, livemode, name, vault_type, currency, balance, reserved, address, is_default, created_at)
		  VALUES ('vlt_1', 'usr_1', 1, 'USD vault', 'SETTLEMENT', 'USD', 0, 0, 'GVAULT', 1, 1);
		INSERT INTO stellar_submissions (hash, vault_id, kind, seq, envelope, valid_until, created_at)
		  VALUES ('h1', 'vlt_1', 'change_trust', 4294967296001, 'AAAA', 2, 1);
		DROP INDEX stellar_submissions_vault;
		ALTER TABLE stellar_submissions DROP COLUMN signed_ledger;
		ALTER TABLE stellar_submissions DROP COLUMN closed_at;
		ALTER TABLE stellar_submissions DROP COLUMN last_refusal;
		PRAGMA user_version = 8;`)
	is.NoErr(err)
	is.NoErr(db.Close())

	for range 2 { // the second open finds version 9 and does nothing
		db, err = Open(ctx, path, todaysSchema(t))
		is.NoErr(err)
		var version int
		is.NoErr(db.r.QueryRow("PRAGMA user_version").Scan(&version))
		is.Equal(version, SchemaVersion)
		s, err := db.Chain().FindSubmission(ctx, "h1")
		is.NoErr(err)
		is.Equal(s.SignedLedger, int64(0))
		is.True(s.ClosedAt.IsZero())
		is.Equal(s.LastRefusal, "")
		known, err := db.Chain().KnownSeq(ctx, "vlt_1")
		is.NoErr(err)
		is.Equal(known, int64(4294967296001))
		is.NoErr(db.Close())
	}
}
