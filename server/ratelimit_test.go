package server_test

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/google/uuid"
	"github.com/matryer/is"
)

func TestRateLimits(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	body := map[string]any{"amount": 3, "currency": "USD", "destinationAddress": testAddress}
	t.Run("Initiate10PerMinute", func(t *testing.T) {
		is := is.New(t)
		key := uuid.NewString()
		for i := 0; i < 10; i++ {
			k := key
			if i > 0 {
				k = uuid.NewString()
			}
			r := e.req("POST", "/api/v1/payments/initiate", body, "Idempotency-Key", k)
			is.Equal(r.Status, http.StatusCreated)
			is.Equal(r.Header.Get("RateLimit-Limit"), "10")
			is.Equal(r.Header.Get("RateLimit-Remaining"), strconv.Itoa(9-i))
		}
		// A replay is not counted and still answers.
		is.Equal(e.req("POST", "/api/v1/payments/initiate", body, "Idempotency-Key", key).Status, http.StatusCreated)
		r := e.req("POST", "/api/v1/payments/initiate", body)
		is.Equal(r.Status, http.StatusTooManyRequests)
		is.Equal(r.errCode(t), "ERR_RATE_LIMITED")
		is.True(r.Header.Get("Retry-After") != "")
		is.Equal(r.Header.Get("RateLimit-Remaining"), "0")
	})
	t.Run("Confirm5PerMinute", func(t *testing.T) {
		is := is.New(t)
		for i := 0; i < 5; i++ {
			r := e.req("POST", "/api/v1/payments/confirm", map[string]any{"id": "pay_x", "destinationAddress": testAddress, "amount": "1", "currency": "USD", "vaultId": e.VaultID})
			is.Equal(r.Status, http.StatusNotFound)
		}
		r := e.req("POST", "/api/v1/payments/confirm", map[string]any{"id": "pay_x", "destinationAddress": testAddress, "amount": "1", "currency": "USD", "vaultId": e.VaultID})
		is.Equal(r.Status, http.StatusTooManyRequests)
	})
	t.Run("DefaultAndOtherUsers", func(t *testing.T) {
		is := is.New(t)
		r := e.req("GET", "/api/v1/payments", nil)
		is.Equal(r.Header.Get("RateLimit-Limit"), "600")
		other, _, _ := e.newUser("other-rate@example.com", false, []string{"payments:write"})
		is.Equal(e.reqAs(other, "POST", "/api/v1/payments/initiate", body).Status, http.StatusCreated)
	})
}
