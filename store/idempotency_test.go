package store

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

// TestIdempotentLookups: a key that replaced none finds its stored
// responses by one probe of the primary key; a rotated key is marked as
// replacing another and finds its predecessor's too; an expired response
// is found by neither.
func TestIdempotentLookups(t *testing.T) {
	is := is.New(t)
	db, sealer := openTestDB(t)
	ctx := context.Background()
	u := testUser(t, db, sealer)
	var k1, k2 APIKey
	var secret2 string
	is.NoErr(db.WithTx(ctx, func(tx *Tx) (err error) {
		if k1, _, err = tx.Keys().CreateAPIKey(u, "ci", []string{"payments:write"}); err != nil {
			return err
		}
		return tx.Payments().SaveIdempotent(k1.ID, "k-1", IdempotentResponse{RequestHash: []byte{1}, Status: 201, Body: []byte(`{}`)})
	}))
	first, err := db.Keys().FindAPIKey(ctx, k1.ID)
	is.NoErr(err)
	is.True(!first.Replaces)
	is.NoErr(db.WithTx(ctx, func(tx *Tx) (err error) {
		k2, secret2, err = tx.Keys().RotateAPIKey(k1.ID)
		return err
	}))
	is.True(k2.Replaces)
	second, err := db.Keys().FindAPIKeyBySecret(ctx, secret2)
	is.NoErr(err)
	is.True(second.Replaces)

	_, found, err := db.Payments().FindIdempotent(ctx, k1.ID, "k-1")
	is.NoErr(err)
	is.True(found)
	_, found, err = db.Payments().FindIdempotent(ctx, k2.ID, "k-1")
	is.NoErr(err)
	is.True(!found) // the plain lookup is the key's own
	r, found, err := db.Payments().FindIdempotentAcross(ctx, k2.ID, "k-1")
	is.NoErr(err)
	is.True(found)
	is.Equal(r.Status, 201)

	db.SetClock(func() time.Time { return time.Now().Add(IdempotencyTTL + time.Minute) })
	_, found, err = db.Payments().FindIdempotent(ctx, k1.ID, "k-1")
	is.NoErr(err)
	is.True(!found)
	_, found, err = db.Payments().FindIdempotentAcross(ctx, k2.ID, "k-1")
	is.NoErr(err)
	is.True(!found)

	plan := explain(t, db, idempotentSQL, "key_1", "k", 0)
	is.True(strings.Contains(plan, "USING PRIMARY KEY") && !strings.Contains(plan, "SCAN")) // one probe
	plan = explain(t, db, "SELECT "+apiKeyCols+" FROM api_keys WHERE id = ?", "key_1")
	is.True(strings.Contains(plan, "api_keys_replaced_by") && !strings.Contains(plan, "SCAN")) // Replaces by the index
}
