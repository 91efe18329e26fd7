package store

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/matryer/is"
)

// TestMigrateVersion11Profile builds a version-10 file whose profiles lack
// the State and the date registration took effect, with a profile that
// carries a GSTIN, opens it twice, and checks that the columns appear once,
// and the old profile reads with both empty.
func TestMigrateVersion11Profile(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v10.db")
	db, err := Open(ctx, path, todaysSchema(t))
	is.NoErr(err)
	_, err = db.x.Writer().Exec(`
		INSERT INTO users VALUES ('usr_1', 'a@example.com', 1, 1);
		INSERT INTO profiles (user_id, email, name, gstin, pan, setup_completed, created_at, updated_at)
		  VALUES ('usr_1', 'a@example.com', 'Asha', '27ABCPR1234K1ZN', 'ABCPR1234K', 1, 1, 1);
		ALTER TABLE profiles DROP COLUMN state_code;
		ALTER TABLE profiles DROP COLUMN gst_registered_from;
		PRAGMA user_version = 10;`)
	is.NoErr(err)
	is.NoErr(db.Close())

	for range 2 { // the second open finds version 11 and does nothing
		db, err = Open(ctx, path, todaysSchema(t))
		is.NoErr(err)
		var version int
		is.NoErr(db.r.QueryRow("PRAGMA user_version").Scan(&version))
		is.Equal(version, SchemaVersion)
		p, err := db.People().FindProfile(ctx, "usr_1")
		is.NoErr(err)
		is.Equal(p.GSTIN, "27ABCPR1234K1ZN")
		is.Equal(p.StateCode, "")
		is.Equal(p.GSTRegisteredFrom, "")
		is.NoErr(db.Close())
	}
}
