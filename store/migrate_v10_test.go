package store

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/matryer/is"
)

// TestMigrateVersion10 builds a version-9 file whose vault_quarantines
// lack the unknown transactions' hashes and holds an open quarantine,
// opens it twice, and checks that the column appears once and the old
// quarantine reads with no hashes and says nothing of them.
func TestMigrateVersion10(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v9.db")
	db, err := Open(ctx, path, todaysSchema(t))
	is.NoErr(err)
	_, err = db.x.Writer().Exec(`
		INSERT INTO users VALUES ('usr_1', 'a@example.com', 1, 1);
		INSERT INTO vaults (id, user_id, livemode, name, vault_type, currency, balance, reserved, address, is_default, created_at)
		  VALUES ('vlt_1', 'usr_1', 1, 'USD vault', 'SETTLEMENT', 'USD', 0, 0, 'GVAULT', 1, 1);
		INSERT INTO vault_quarantines (id, vault_id, reason, chain_seq, known_seq, ledger, last_modified, created_at)
		  VALUES ('vqr_1', 'vlt_1', 'unknown_sequence', 4294967296003, 4294967296001, 1010, 1009, 1);
		ALTER TABLE vault_quarantines DROP COLUMN unknown_hashes;
		PRAGMA user_version = 9;`)
	is.NoErr(err)
	is.NoErr(db.Close())

	for range 2 { // the second open finds version 10 and does nothing
		db, err = Open(ctx, path, todaysSchema(t))
		is.NoErr(err)
		var version int
		is.NoErr(db.r.QueryRow("PRAGMA user_version").Scan(&version))
		is.Equal(version, SchemaVersion)
		q, open, err := db.Movements().OpenQuarantine(ctx, "vlt_1")
		is.NoErr(err)
		is.True(open)
		is.Equal(q.UnknownTxs(), int64(2))
		is.Equal(len(q.Hashes), 0)
		is.Equal(q.UnknownHashes(), []string{})
		is.NoErr(db.Close())
	}
}
