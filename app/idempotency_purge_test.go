package app_test

import (
	"context"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/payoutd/payoutd/app"
	"github.com/payoutd/payoutd/app/apptest"
	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/jobs"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/store/storetest"
)

// TestIdempotencyPurge: a started server deletes stored responses whose
// key has expired (24 hours after the request) and keeps the live ones,
// so the table does not grow with every request ever made.
func TestIdempotencyPurge(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	a, _ := apptest.Open(t, app.Config{Workers: 1})

	save := func(at time.Time, key string) {
		a.DB.SetClock(func() time.Time { return at })
		is.NoErr(a.DB.WithTx(ctx, func(tx *store.Tx) error {
			return tx.Payments().SaveIdempotent("key_1", key, store.IdempotentResponse{RequestHash: []byte{1}, Status: 201, Body: []byte(`{}`)})
		}))
	}
	now := time.Now().UTC()
	save(now.Add(-store.IdempotencyTTL-time.Minute), "expired")
	save(now.Add(-store.IdempotencyTTL+time.Hour), "live")
	a.DB.SetClock(nil)

	raw := storetest.New(a.DB)
	keys := func() (n int) {
		is.NoErr(raw.QueryRow(`SELECT count(*) FROM idempotency_keys`).Scan(&n))
		return n
	}
	is.Equal(keys(), 2)
	is.NoErr(a.Start(ctx))
	defer a.Stop(ctx)
	wait.Until(t, 30*time.Second, "the purge job to finish", func() bool {
		done := storetest.Jobs(t, a.River, river.NewJobListParams().Kinds(jobs.IdempotencyPurgeArgs{}.Kind()).States(rivertype.JobStateCompleted))
		return len(done) == 1
	})
	var left string
	is.NoErr(raw.QueryRow(`SELECT key FROM idempotency_keys`).Scan(&left))
	is.Equal(keys(), 1)
	is.Equal(left, "live")
}
