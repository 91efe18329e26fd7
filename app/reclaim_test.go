package app_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

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
	jobs := storetest.Jobs(t, a.River, river.NewJobListParams().Kinds(store.AdvanceJobKind))
	is.Equal(len(jobs), 2)
	cut, last := jobs[0].ID, jobs[1].ID // in the order inserted
	raw := storetest.New(a.DB)
	since := time.Now().Add(-time.Second)
	is.NoErr(raw.LeaveRunning(cut, 1, since))
	is.NoErr(raw.LeaveRunning(last, 3, since))
	is.NoErr(raw.LeaveLeader("killed-process", since, time.Now().Add(time.Minute)))
	leader, err := raw.Leader()
	is.NoErr(err)
	is.Equal(leader, "killed-process")

	is.NoErr(a.Start(ctx))
	defer a.Stop(ctx)
	leader, err = raw.Leader()
	is.NoErr(err)
	is.True(leader != "killed-process") // its lease is not waited out
	state := func(id int64) (st rivertype.JobState, why string) {
		j, err := a.River.JobGet(ctx, id)
		is.NoErr(err)
		if len(j.Errors) > 0 {
			why = j.Errors[0].Error
		}
		return j.State, why
	}
	// The cut-off run is on the job's record, put there by the takeover,
	// not by River's rescuer (which would wait 25 s to find it stuck).
	_, why := state(cut)
	is.True(strings.Contains(why, "taken over at start"))
	wait.Until(t, 10*time.Second, "the job to run again", func() bool { st, _ := state(cut); return st == rivertype.JobStateCompleted })
	st, why := state(last)
	is.Equal(st, rivertype.JobStateDiscarded) // its last attempt was the one cut off
	is.True(strings.Contains(why, "taken over at start"))
}
