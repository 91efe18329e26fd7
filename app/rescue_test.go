package app_test

import (
	"context"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/app"
	"github.com/payoutd/payoutd/app/apptest"
	"github.com/payoutd/payoutd/internal/wait"
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

	sql := storetest.New(a.DB)
	var deliveries []int64
	rows, err := sql.Query("SELECT id FROM river_job WHERE kind = 'webhook_deliver' ORDER BY id")
	is.NoErr(err)
	for rows.Next() {
		var id int64
		is.NoErr(rows.Scan(&id))
		deliveries = append(deliveries, id)
	}
	is.NoErr(rows.Err())
	rows.Close()
	is.True(len(deliveries) >= 2)
	var advance int64
	is.NoErr(sql.QueryRow("SELECT id FROM river_job WHERE kind = ?", store.AdvanceJobKind).Scan(&advance))
	// Left running by a process: River's own time format, which it
	// compares as text.
	running := func(id int64, ago time.Duration) {
		at := time.Now().Add(-ago).UTC().Round(time.Millisecond).Format("2006-01-02 15:04:05.999")
		_, err := sql.Exec("UPDATE river_job SET state = 'running', attempt = 1, attempted_at = ? WHERE id = ?", at, id)
		is.NoErr(err)
	}
	running(advance, 30*time.Second)
	running(deliveries[0], 30*time.Second)
	running(deliveries[1], 45*time.Second)
	_, err = sql.Exec("DELETE FROM river_job WHERE kind = 'webhook_deliver' AND id NOT IN (?, ?)", deliveries[0], deliveries[1])
	is.NoErr(err)
	state := func(id int64) string {
		var s string
		is.NoErr(sql.QueryRow("SELECT state FROM river_job WHERE id = ?", id).Scan(&s))
		return s
	}

	is.NoErr(a.Start(ctx))
	defer a.Stop(ctx)
	wait.Until(t, 30*time.Second, "the rescuer to run", func() bool { return state(advance) != "running" && state(deliveries[1]) != "running" })
	is.Equal(state(deliveries[0]), "running") // within its own timeout: not run a second time
}
