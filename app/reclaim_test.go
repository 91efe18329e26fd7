package app_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/app"
	"github.com/payoutd/payoutd/app/apptest"
	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/store/storetest"
)

// TestStartTakesOverAfterCrash: a process killed mid-job leaves its jobs
// running and its River leadership on record, with a lease still to run.
// The next process holds the file's server lock, so the first is gone:
// when Start returns, its jobs are available again (or discarded when it
// was their last attempt, as River's rescuer would) and its leadership is
// over, so nothing waits for a lease or a rescue.
func TestStartTakesOverAfterCrash(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	a, _ := apptest.Open(t, app.Config{Workers: 1, MaxAttempts: 3})
	is.NoErr(a.DB.WithTx(ctx, func(tx *store.Tx) error {
		for _, id := range []string{"pay_cut", "pay_last"} {
			if err := tx.Enqueue(payout.AdvanceArgs{PaymentID: id}, nil); err != nil {
				return err
			}
		}
		return nil
	}))
	sql := storetest.New(a.DB)
	var cut, last int64 // the two jobs, in the order inserted
	is.NoErr(sql.QueryRow("SELECT min(id), max(id) FROM river_job WHERE kind = ?", store.AdvanceJobKind).Scan(&cut, &last))
	// River's own time format, which it compares as text.
	river := func(d time.Duration) string {
		return time.Now().Add(d).UTC().Round(time.Millisecond).Format("2006-01-02 15:04:05.999")
	}
	_, err := sql.Exec("UPDATE river_job SET state = 'running', attempt = 1, attempted_at = ? WHERE id = ?", river(-time.Second), cut)
	is.NoErr(err)
	_, err = sql.Exec("UPDATE river_job SET state = 'running', attempt = 3, attempted_at = ? WHERE id = ?", river(-time.Second), last)
	is.NoErr(err)
	_, err = sql.Exec("INSERT INTO river_leader (elected_at, expires_at, leader_id, name) VALUES (?, ?, 'killed-process', 'default')", river(-time.Second), river(time.Minute))
	is.NoErr(err)

	is.NoErr(a.Start(ctx))
	defer a.Stop(ctx)
	var dead int
	is.NoErr(sql.QueryRow("SELECT count(*) FROM river_leader WHERE leader_id = 'killed-process'").Scan(&dead))
	is.Equal(dead, 0) // its lease is not waited out
	state := func(id int64) (st, why string) {
		is.NoErr(sql.QueryRow("SELECT state, coalesce(errors->>'$[0].error', '') FROM river_job WHERE id = ?", id).Scan(&st, &why))
		return st, why
	}
	// The cut-off run is on the job's record, put there by the takeover,
	// not by River's rescuer (which would wait 25 s to find it stuck).
	_, why := state(cut)
	is.True(strings.Contains(why, "taken over at start"))
	wait.Until(t, 10*time.Second, "the job to run again", func() bool { st, _ := state(cut); return st == "completed" })
	st, why := state(last)
	is.Equal(st, "discarded") // its last attempt was the one cut off
	is.True(strings.Contains(why, "taken over at start"))
}
