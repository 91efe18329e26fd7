package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/internal/wait"
)

func createKey(t *testing.T, db *DB, u User, scopes []string) (APIKey, string) {
	t.Helper()
	var k APIKey
	var secret string
	err := db.WithTx(context.Background(), func(tx *Tx) (err error) {
		k, secret, err = tx.CreateAPIKey(u, "test", scopes)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return k, secret
}

// TestAPIKeyCacheForgetsWritesOfThisProcess: a key once found is answered
// from memory, and any write of api_keys in this process (revoke, rotate,
// a statement naming the table) is seen by the very next lookup.
func TestAPIKeyCacheForgetsWritesOfThisProcess(t *testing.T) {
	ctx := context.Background()
	db, sealer := openTestDB(t)
	u := testUser(t, db, sealer)
	find := func(secret string) APIKey {
		t.Helper()
		k, err := db.FindAPIKeyBySecret(ctx, secret)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}

	t.Run("Revoke", func(t *testing.T) {
		is := is.New(t)
		k, secret := createKey(t, db, u, AllScopes)
		is.True(find(secret).Active(time.Now()))
		is.True(find(secret).Active(time.Now())) // from memory
		is.NoErr(db.WithTx(ctx, func(tx *Tx) error { return tx.RevokeAPIKey(k.ID) }))
		is.True(!find(secret).Active(time.Now()))
	})
	t.Run("Rotate", func(t *testing.T) {
		is := is.New(t)
		k, secret := createKey(t, db, u, AllScopes)
		is.Equal(find(secret).ReplacedBy, "")
		var fresh APIKey
		is.NoErr(db.WithTx(ctx, func(tx *Tx) (err error) {
			fresh, _, err = tx.RotateAPIKey(k.ID)
			return err
		}))
		old := find(secret)
		is.Equal(old.ReplacedBy, fresh.ID)
		is.True(old.ExpiresAt != nil)
	})
	t.Run("AnyStatementOnTheTable", func(t *testing.T) {
		is := is.New(t)
		k, secret := createKey(t, db, u, AllScopes)
		is.Equal(len(find(secret).Scopes), len(AllScopes))
		is.NoErr(db.WithTx(ctx, func(tx *Tx) error {
			_, err := tx.exec("UPDATE api_keys SET scopes = 'payments:read' WHERE id = ?", k.ID)
			return err
		}))
		is.Equal(find(secret).Scopes, []string{"payments:read"})
	})
	t.Run("CallersCannotChangeWhatIsRemembered", func(t *testing.T) {
		is := is.New(t)
		_, secret := createKey(t, db, u, []string{"payments:read"})
		k := find(secret)
		k.Scopes[0] = "payments:write"
		is.Equal(find(secret).Scopes, []string{"payments:read"})
	})
}

// TestAPIKeyCacheSeesOtherProcessesWithinASecond: a key revoked through
// another handle on the file (as `payoutd keys revoke` beside a running
// server) is refused by this one within a second of the revoke's commit,
// and never accepted again once refused.
func TestAPIKeyCacheSeesOtherProcessesWithinASecond(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	db, sealer := openTestDB(t)
	u := testUser(t, db, sealer)
	k, secret := createKey(t, db, u, AllScopes)
	found, err := db.FindAPIKeyBySecret(ctx, secret)
	is.NoErr(err)
	is.True(found.Active(time.Now())) // remembered now

	lock, err := Lock(db.Path, Write)
	is.NoErr(err)
	other, err := lock.Open(ctx, "")
	is.NoErr(err)
	defer other.Close()
	is.NoErr(other.WithTx(ctx, func(tx *Tx) error { return tx.RevokeAPIKey(k.ID) }))
	committed := time.Now()

	wait.For(t, 10*time.Second, func() error {
		began := time.Now()
		k, err := db.FindAPIKeyBySecret(ctx, secret)
		if err != nil {
			t.Fatal(err)
		}
		if k.Active(time.Now()) {
			if began.Sub(committed) > time.Second {
				t.Fatalf("revoked key accepted %s after the revoke committed", began.Sub(committed))
			}
			return errors.New("revoked key still accepted")
		}
		return nil
	})
	for range 3 { // and stays refused
		k, err := db.FindAPIKeyBySecret(ctx, secret)
		is.NoErr(err)
		is.True(!k.Active(time.Now()))
	}
}
