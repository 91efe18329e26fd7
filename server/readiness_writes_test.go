package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/internal/wait"
)

// TestReadinessSeesFailingWrites: once the database refuses writes (here
// SQLite's own switch, query_only, on the write connection: every write
// fails as on a read-only disk while reads go on), /readyz answers 503
// storage_unwritable with the reason within 5 s, and the writable metric
// reads 0; once writes land again both are back.
func TestReadinessSeesFailingWrites(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	is.Equal(e.req("GET", "/readyz", nil).Status, http.StatusOK)
	is.True(e.Server.StorageWritable())

	is.NoErr(e.SQL.Setting("PRAGMA query_only = 1"))
	failedAt := time.Now()
	var ready resp
	wait.For(t, 5*time.Second, func() error {
		if ready = e.req("GET", "/readyz", nil); ready.Status != http.StatusServiceUnavailable {
			return fmt.Errorf("/readyz answers %d", ready.Status)
		}
		return nil
	})
	t.Logf("/readyz answered 503 %s after the writes began to fail", time.Since(failedAt).Round(time.Millisecond))
	body := ready.JSON(t)
	is.Equal(body["status"], "storage_unwritable")
	is.True(strings.Contains(body["reason"].(string), "read-only"))
	is.True(ready.Header.Get("Retry-After") != "")
	is.True(!e.Server.StorageWritable())
	// Reads, and the process itself, are fine.
	is.Equal(e.req("GET", "/healthz", nil).Status, http.StatusOK)
	is.Equal(e.req("GET", "/api/v1/payments", nil).Status, http.StatusOK)
	// A write is refused, and /readyz says so at once.
	r := e.req("POST", "/api/v1/payments/initiate", map[string]any{"amount": json.Number("1.00"), "currency": "USD", "destinationAddress": testAddress})
	is.True(r.Status >= 500)
	is.Equal(e.req("GET", "/readyz", nil).Status, http.StatusServiceUnavailable)

	is.NoErr(e.SQL.Setting("PRAGMA query_only = 0"))
	wait.Until(t, 5*time.Second, "/readyz to answer 200 again", func() bool {
		return e.req("GET", "/readyz", nil).Status == http.StatusOK
	})
	is.True(e.Server.StorageWritable())
}
