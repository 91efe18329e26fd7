package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/matryer/is"

	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/store/storetest"
)

// limitPages caps the database file at n pages on the write connection
// (0: at its current size), SQLite's own way to make a write fail with
// SQLITE_FULL exactly as a full disk does.
func limitPages(t *testing.T, db *store.DB, n int64) {
	t.Helper()
	if n == 0 {
		if err := storetest.New(db).QueryRow("PRAGMA page_count").Scan(&n); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := storetest.New(db).Exec(fmt.Sprintf("PRAGMA max_page_count = %d", n)); err != nil {
		t.Fatal(err)
	}
}

// TestStorageFull: a write that fails for lack of space answers 503
// ERR_STORAGE_FULL with Retry-After, never a 500; /readyz reports it until
// a write succeeds again; nothing acknowledged is lost, and the refused
// request succeeds when retried with its Idempotency-Key.
func TestStorageFull(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t, func(o *envOpts) { o.noRiver, o.limits = true, map[string]int{"initiate": 100000} })
	is.Equal(e.req("GET", "/readyz", nil).Status, http.StatusOK)
	limitPages(t, e.DB, 0)

	body := map[string]any{"amount": json.Number("10.00"), "currency": "USD", "destinationAddress": testAddress, "memo": "fill"}
	var acked []string
	var full resp
	var fullKey string
	for i := 0; i < 2000 && full.Status == 0; i++ {
		key := uuid.NewString()
		r := e.req("POST", "/api/v1/payments/initiate", body, "Idempotency-Key", key)
		switch r.Status {
		case http.StatusCreated:
			acked = append(acked, r.JSON(t)["id"].(string))
		case http.StatusServiceUnavailable:
			full, fullKey = r, key
		default:
			t.Fatalf("initiate %d: %d %s", i, r.Status, r.Body)
		}
	}
	if full.Status == 0 {
		t.Fatal("the capped file never filled up")
	}
	t.Logf("%d payouts acknowledged before the file was full", len(acked))
	is.Equal(full.errCode(t), "ERR_STORAGE_FULL")
	is.Equal(full.Header.Get("Retry-After"), "60")

	ready := e.req("GET", "/readyz", nil)
	is.Equal(ready.Status, http.StatusServiceUnavailable)
	is.Equal(ready.JSON(t)["status"], "storage_full")
	is.True(ready.Header.Get("Retry-After") != "")
	is.Equal(e.req("GET", "/healthz", nil).Status, http.StatusOK) // the process itself is fine
	// Concurrent writes share group commits: each is refused the same way.
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := e.req("POST", "/api/v1/payments/initiate", body, "Idempotency-Key", uuid.NewString())
			mu.Lock()
			defer mu.Unlock()
			switch r.Status {
			case http.StatusCreated:
				acked = append(acked, r.JSON(t)["id"].(string))
			case http.StatusServiceUnavailable:
				if r.errCode(t) != "ERR_STORAGE_FULL" {
					t.Errorf("503 with %s", r.Body)
				}
			default:
				t.Errorf("concurrent initiate: %d %s", r.Status, r.Body)
			}
		}()
	}
	wg.Wait()
	// Reads go on.
	for _, id := range acked {
		is.Equal(e.req("GET", "/api/v1/payments/payouts/"+id, nil).Status, http.StatusOK)
	}
	// Other writes are refused the same way, never with a 500.
	r := e.req("PATCH", "/api/v1/profile", map[string]any{"name": "Asha Rao Full"})
	is.True(r.Status == http.StatusServiceUnavailable || r.Status == http.StatusOK)
	is.Equal(e.req("GET", "/readyz", nil).Status, http.StatusServiceUnavailable)

	limitPages(t, e.DB, 1<<30) // space freed
	ready = e.req("GET", "/readyz", nil)
	is.Equal(ready.Status, http.StatusOK)
	is.Equal(ready.JSON(t)["status"], "ready")
	// The refused request was not stored: its retry runs now.
	again := e.req("POST", "/api/v1/payments/initiate", body, "Idempotency-Key", fullKey)
	is.Equal(again.Status, http.StatusCreated)
	is.Equal(again.Header.Get("Idempotent-Replayed"), "")
	var n int
	is.NoErr(e.SQL.QueryRow("SELECT count(*) FROM payments WHERE user_id = ?", e.UserID).Scan(&n))
	is.Equal(n, len(acked)+1)
	problems, err := e.DB.Health().Check(context.Background())
	is.NoErr(err)
	is.Equal(len(problems), 0)
}
