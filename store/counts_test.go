package store

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/internal/wait"
)

// TestCountsMoveOncePerBatch: count deltas of the transactions that
// succeed land with their batch's commit (visible when WithTx returns);
// those of failed transactions never land.
func TestCountsMoveOncePerBatch(t *testing.T) {
	is := is.New(t)
	db, _ := openTestDB(t)
	ctx := context.Background()
	count := func(status string) (n int64) {
		err := db.r.QueryRow("SELECT coalesce(sum(n), 0) FROM payment_counts WHERE user_id = 'usr_c' AND status = ?", status).Scan(&n)
		is.NoErr(err)
		return n
	}
	hold, held := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // holds the committer so the others share the next batch
		defer wg.Done()
		is.NoErr(db.WithTx(ctx, func(tx *Tx) error { close(held); <-hold; return nil }))
	}()
	<-held
	boom := errors.New("boom")
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := db.WithTx(ctx, func(tx *Tx) error {
				tx.countPayment("usr_c", StatusInitiated, 1)
				if i%3 == 0 {
					tx.countPayment("usr_c", StatusInitiated, -1)
					tx.countPayment("usr_c", StatusComplianceCheck, 1)
				}
				if i%4 == 1 {
					return boom
				}
				return nil
			})
			if i%4 == 1 {
				is.True(errors.Is(err, boom))
				return
			}
			is.NoErr(err)
			is.True(count(StatusInitiated)+count(StatusComplianceCheck) >= 1) // visible on return
		}()
	}
	wait.Parked(t, 30*time.Second, 12, "select", "sqlitex.(*DB).WithTx")
	close(hold)
	wg.Wait()
	// Succeeded: i in {0,2,3,4,6,7,8,10,11}; of those i%3==0 moved on: 0,3,6.
	is.Equal(count(StatusInitiated), int64(6))
	is.Equal(count(StatusComplianceCheck), int64(3))
}
