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
	"github.com/payoutd/payoutd/kyc"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/store/storetest"
)

// TestRescueWaitsForAJobsOwnTimeout: while a process runs, River rescues a
// job still running after RescueStuckJobsAfter (job timeout + 5 s: 25 s)
// as one whose run was lost, and runs it again. A webhook delivery may run for its own,
// longer timeout (40 s); rescued at 25 s it could be delivered twice while
// the first run still goes on. It is not: River's rescuer leaves a job
// alone until its worker's own timeout has passed. So, once the rescuer
// has run: a payout job started 30 s ago is rescued, a delivery started
// 30 s ago is left running, and one started 45 s ago (past its timeout:
// its process died) is rescued.
func TestRescueWaitsForAJobsOwnTimeout(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	a, sealer := apptest.Open(t, app.Config{Workers: 1})
	// The first start takes over whatever a previous process left running
	// (TestStartTakesOverAfterCrash); the jobs below are left running
	// while this process has already started once, so only River's
	// rescuer may move them.
	is.NoErr(a.Start(ctx))
	is.NoErr(a.Stop(ctx))
	err := a.DB.WithTx(ctx, func(tx *store.Tx) error {
		u, _, err := tx.People().EnsureUser("rescue@example.com", false, "Asha Rao", sealer)
		if err != nil {
			return err
		}
		if _, _, err = tx.Webhooks().CreateWebhookEndpoint(store.WebhookEndpoint{UserID: u.ID, URL: "http://127.0.0.1:9/hook"}, sealer); err != nil {
			return err
		}
		if _, err = kyc.SandboxWalk(tx, u.ID, true, ""); err != nil { // four deliveries
			return err
		}
		return tx.Enqueue(payout.AdvanceArgs{PaymentID: "pay_gone"}, nil)
	}, store.WithActor("cli:kyc", ""))
	is.NoErr(err)

	var deliveries []int64
	for _, j := range storetest.Jobs(t, a.River, river.NewJobListParams().Kinds(jobs.WebhookDeliverArgs{}.Kind())) {
		deliveries = append(deliveries, j.ID)
	}
	is.True(len(deliveries) >= 2)
	advance := storetest.Jobs(t, a.River, river.NewJobListParams().Kinds(store.AdvanceJobKind))
	is.Equal(len(advance), 1)
	// Left running by a process whose run began ago.
	raw := storetest.New(a.DB)
	running := func(id int64, ago time.Duration) {
		is.NoErr(raw.LeaveRunning(id, 1, time.Now().Add(-ago)))
	}
	running(advance[0].ID, 30*time.Second)
	running(deliveries[0], 30*time.Second)
	running(deliveries[1], 45*time.Second)
	for _, id := range deliveries[2:] {
		_, err := a.River.JobDelete(ctx, id)
		is.NoErr(err)
	}
	state := func(id int64) rivertype.JobState {
		j, err := a.River.JobGet(ctx, id)
		is.NoErr(err)
		return j.State
	}

	is.NoErr(a.Start(ctx))
	defer a.Stop(ctx)
	wait.Until(t, 30*time.Second, "the rescuer to run", func() bool {
		return state(advance[0].ID) != rivertype.JobStateRunning && state(deliveries[1]) != rivertype.JobStateRunning
	})
	is.Equal(state(deliveries[0]), rivertype.JobStateRunning) // within its own timeout: not run a second time
}
