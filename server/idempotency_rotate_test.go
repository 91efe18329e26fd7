package server_test

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/matryer/is"

	"github.com/payoutd/payoutd/store"
)

// TestIdempotencyKeyCase: a UUID is one key whatever its letter case, so a
// client that upper-cases it on retry gets the stored answer, not a second
// payout.
func TestIdempotencyKeyCase(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	body := map[string]any{"amount": 25, "currency": "USD", "destinationAddress": testAddress}
	key := uuid.NewString()
	a := e.req("POST", "/api/v1/payments/initiate", body, "Idempotency-Key", strings.ToUpper(key))
	is.Equal(a.Status, http.StatusCreated)
	b := e.req("POST", "/api/v1/payments/initiate", body, "Idempotency-Key", key)
	is.Equal(b.Status, http.StatusCreated)
	is.Equal(b.Header.Get("Idempotent-Replayed"), "true")
	is.True(bytes.Equal(a.Body, b.Body))
	c := e.req("POST", "/api/v1/payments/initiate", body, "Idempotency-Key", strings.ToUpper(key[:9])+key[9:])
	is.Equal(c.Header.Get("Idempotent-Replayed"), "true")
	var n int
	is.NoErr(e.SQL.QueryRow("SELECT count(*) FROM payments WHERE user_id = ?", e.UserID).Scan(&n))
	is.Equal(n, 1)
}

// TestIdempotencyAcrossRotation: after `keys rotate`, a client retrying
// with the new key and the same Idempotency-Key and body gets the answer
// the old key got, also across two rotations; a different body is still
// refused as a reused key.
func TestIdempotencyAcrossRotation(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	ctx := context.Background()
	rotate := func(id string) (store.APIKey, string) {
		var k store.APIKey
		var secret string
		is.NoErr(e.DB.WithTx(ctx, func(tx *store.Tx) (err error) {
			k, secret, err = tx.Keys().RotateAPIKey(id)
			return err
		}))
		return k, secret
	}
	body := map[string]any{"amount": 25, "currency": "USD", "destinationAddress": testAddress}
	idem := uuid.NewString()
	first := e.req("POST", "/api/v1/payments/initiate", body, "Idempotency-Key", idem)
	is.Equal(first.Status, http.StatusCreated)

	k1, secret1 := rotate(e.keyID())
	again := e.reqAs(secret1, "POST", "/api/v1/payments/initiate", body, "Idempotency-Key", idem)
	is.Equal(again.Status, http.StatusCreated)
	is.Equal(again.Header.Get("Idempotent-Replayed"), "true")
	is.True(bytes.Equal(first.Body, again.Body))

	// A response stored under the rotated key is found after a second rotation.
	idem2 := uuid.NewString()
	mid := e.reqAs(secret1, "POST", "/api/v1/payments/initiate", body, "Idempotency-Key", idem2)
	is.Equal(mid.Status, http.StatusCreated)
	_, secret2 := rotate(k1.ID)
	for _, k := range []string{idem, idem2} {
		r := e.reqAs(secret2, "POST", "/api/v1/payments/initiate", body, "Idempotency-Key", strings.ToUpper(k))
		is.Equal(r.Status, http.StatusCreated)
		is.Equal(r.Header.Get("Idempotent-Replayed"), "true")
	}
	other := map[string]any{"amount": 26, "currency": "USD", "destinationAddress": testAddress}
	r := e.reqAs(secret2, "POST", "/api/v1/payments/initiate", other, "Idempotency-Key", idem)
	is.Equal(r.Status, http.StatusUnprocessableEntity)
	is.Equal(r.errCode(t), "ERR_IDEMPOTENCY_KEY_REUSED")

	var n int
	is.NoErr(e.SQL.QueryRow("SELECT count(*) FROM payments WHERE user_id = ?", e.UserID).Scan(&n))
	is.Equal(n, 2)

	// Another user's key never sees these responses.
	otherKey, _, _ := e.newUser("idem-other@example.com", false, store.AllScopes)
	r = e.reqAs(otherKey, "POST", "/api/v1/payments/initiate", body, "Idempotency-Key", idem)
	is.Equal(r.Status, http.StatusCreated)
	is.Equal(r.Header.Get("Idempotent-Replayed"), "")
}
