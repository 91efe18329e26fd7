package server_test

import (
	"bytes"
	"net/http"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/matryer/is"
)

func TestIdempotency(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	body := map[string]any{"amount": 25, "currency": "USD", "destinationAddress": testAddress}
	count := func() int {
		var n int
		if err := e.SQL.QueryRow("SELECT count(*) FROM payments").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	t.Run("ReplayIsByteIdentical", func(t *testing.T) {
		is := is.New(t)
		key := uuid.NewString()
		before := count()
		a := e.req("POST", "/api/v1/payments/initiate", body, "Idempotency-Key", key)
		b := e.req("POST", "/api/v1/payments/initiate", body, "Idempotency-Key", key)
		is.Equal(a.Status, http.StatusCreated)
		is.Equal(b.Status, http.StatusCreated)
		is.True(bytes.Equal(a.Body, b.Body))
		is.Equal(b.Header.Get("Idempotent-Replayed"), "true")
		is.Equal(count(), before+1)
		is.Equal(a.JSON(t)["txnId"], key) // txnId is the Idempotency-Key
	})
	t.Run("ErrDifferentBody", func(t *testing.T) {
		is := is.New(t)
		key := uuid.NewString()
		is.Equal(e.req("POST", "/api/v1/payments/initiate", body, "Idempotency-Key", key).Status, http.StatusCreated)
		other := map[string]any{"amount": 26, "currency": "USD", "destinationAddress": testAddress}
		r := e.req("POST", "/api/v1/payments/initiate", other, "Idempotency-Key", key)
		is.Equal(r.Status, http.StatusUnprocessableEntity)
		is.Equal(r.errCode(t), "ERR_IDEMPOTENCY_KEY_REUSED")
	})
	t.Run("ErrNotUUID", func(t *testing.T) {
		is := is.New(t)
		before := count()
		r := e.req("POST", "/api/v1/payments/initiate", body, "Idempotency-Key", "not-a-uuid")
		is.Equal(r.Status, http.StatusBadRequest)
		is.Equal(r.errCode(t), "ERR_VALIDATION")
		is.Equal(count(), before)
	})
	t.Run("RefusalIsReplayedToo", func(t *testing.T) {
		is := is.New(t)
		key := uuid.NewString()
		bad := map[string]any{"amount": -1, "currency": "USD", "destinationAddress": testAddress}
		a := e.req("POST", "/api/v1/payments/initiate", bad, "Idempotency-Key", key)
		b := e.req("POST", "/api/v1/payments/initiate", bad, "Idempotency-Key", key)
		is.Equal(a.Status, http.StatusBadRequest)
		is.True(bytes.Equal(a.Body, b.Body))
	})
	t.Run("ScopedToAPIKey", func(t *testing.T) {
		is := is.New(t)
		other, _, _ := e.newUser("other-idem@example.com", false, []string{"payments:write"})
		key := uuid.NewString()
		is.Equal(e.req("POST", "/api/v1/payments/initiate", body, "Idempotency-Key", key).Status, http.StatusCreated)
		is.Equal(e.reqAs(other, "POST", "/api/v1/payments/initiate", body, "Idempotency-Key", key).Status, http.StatusCreated)
	})
}

func TestIdempotencyConcurrentDuplicates(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t, func(o *envOpts) { o.noRiver = true; o.limits = map[string]int{"initiate": 1000} })
	body := map[string]any{"amount": 7, "currency": "USD", "destinationAddress": testAddress}
	key := uuid.NewString()
	var wg sync.WaitGroup
	statuses := make(chan int, 50)
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses <- e.req("POST", "/api/v1/payments/initiate", body, "Idempotency-Key", key).Status
		}()
	}
	wg.Wait()
	close(statuses)
	created, conflict := 0, 0
	for s := range statuses {
		switch s {
		case http.StatusCreated:
			created++
		case http.StatusConflict:
			conflict++
		default:
			t.Fatalf("unexpected status %d", s)
		}
	}
	is.Equal(created+conflict, 50)
	var n int
	is.NoErr(e.SQL.QueryRow("SELECT count(*) FROM payments").Scan(&n))
	is.Equal(n, 1) // exactly one record
}
