package server_test

import (
	"bytes"
	"crypto/sha256"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/matryer/is"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/store"
)

// TestIdempotencyByMeaning: a retry is the same request when it is the same
// JSON value, however its keys are ordered or spaced and however its
// numbers are spelled; a different value under the same key is 422.
func TestIdempotencyByMeaning(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	first := `{"amount":25,"currency":"USD","destinationAddress":"` + testAddress + `","metadata":{"orderId":"A-1","customer":"c_9","project":"p-7"}}`
	count := func() int {
		var n int
		if err := e.SQL.QueryRow("SELECT count(*) FROM payments").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, c := range []struct {
		name, retry string
		status      int
	}{
		{"ReorderedKeys", `{"metadata":{"project":"p-7","orderId":"A-1","customer":"c_9"},"destinationAddress":"` + testAddress + `","currency":"USD","amount":25}`, http.StatusCreated},
		{"Whitespace", "{\n  \"amount\": 25,\n  \"currency\": \"USD\",\n  \"destinationAddress\": \"" + testAddress + "\",\n  \"metadata\": {\"customer\": \"c_9\", \"project\": \"p-7\", \"orderId\": \"A-1\"}\n}", http.StatusCreated},
		{"NumberSpelling", `{"amount":25.00,"currency":"USD","destinationAddress":"` + testAddress + `","metadata":{"orderId":"A-1","customer":"c_9","project":"p-7"}}`, http.StatusCreated},
		{"Escapes", `{"amount":2.5e1,"currency":"\u0055SD","destinationAddress":"` + testAddress + `","metadata":{"orderId":"A\u002d1","customer":"c_9","project":"p-7"}}`, http.StatusCreated},
		{"ErrOtherMetadataValue", `{"amount":25,"currency":"USD","destinationAddress":"` + testAddress + `","metadata":{"orderId":"A-2","customer":"c_9","project":"p-7"}}`, http.StatusUnprocessableEntity},
		{"ErrAmountAsString", `{"amount":"25","currency":"USD","destinationAddress":"` + testAddress + `","metadata":{"orderId":"A-1","customer":"c_9","project":"p-7"}}`, http.StatusUnprocessableEntity},
		{"ErrOtherAmount", `{"amount":25.01,"currency":"USD","destinationAddress":"` + testAddress + `","metadata":{"orderId":"A-1","customer":"c_9","project":"p-7"}}`, http.StatusUnprocessableEntity},
		{"ErrMetadataKeyMissing", `{"amount":25,"currency":"USD","destinationAddress":"` + testAddress + `","metadata":{"orderId":"A-1","customer":"c_9"}}`, http.StatusUnprocessableEntity},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			key := uuid.NewString()
			a := e.req("POST", "/api/v1/payments/initiate", first, "Idempotency-Key", key)
			is.Equal(a.Status, http.StatusCreated)
			before := count()
			b := e.req("POST", "/api/v1/payments/initiate", c.retry, "Idempotency-Key", key)
			is.Equal(b.Status, c.status)
			is.Equal(count(), before) // never a second payout
			if c.status == http.StatusCreated {
				is.Equal(b.Header.Get("Idempotent-Replayed"), "true")
				is.True(bytes.Equal(a.Body, b.Body))
			} else {
				is.Equal(b.errCode(t), apperr.ErrIdempotencyReused)
			}
		})
	}
	t.Run("OtherPathIsAnotherRequest", func(t *testing.T) {
		is := is.New(t)
		key := uuid.NewString()
		is.Equal(e.req("POST", "/api/v1/payments/initiate", first, "Idempotency-Key", key).Status, http.StatusCreated)
		r := e.req("POST", "/v1/payments", first, "Idempotency-Key", key)
		is.Equal(r.Status, http.StatusUnprocessableEntity)
	})
	// A response stored before requests were compared by meaning is keyed
	// by the body's bytes; the same bytes still replay it.
	t.Run("StoredByBytes", func(t *testing.T) {
		is := is.New(t)
		var keyID string
		is.NoErr(e.SQL.QueryRow("SELECT id FROM api_keys WHERE user_id = ?", e.UserID).Scan(&keyID))
		key := uuid.NewString()
		h := sha256.Sum256([]byte("POST /api/v1/payments/initiate\n" + first))
		stored := []byte(`{"stored":"before the upgrade"}` + "\n")
		is.NoErr(e.DB.WithTx(t.Context(), func(tx *store.Tx) error {
			return tx.Payments().SaveIdempotent(keyID, key, store.IdempotentResponse{RequestHash: h[:], Status: http.StatusCreated, Body: stored})
		}))
		r := e.req("POST", "/api/v1/payments/initiate", first, "Idempotency-Key", key)
		is.Equal(r.Status, http.StatusCreated)
		is.True(bytes.Equal(r.Body, stored))
	})
}
