package app_test

import (
	"context"
	"testing"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/app"
	"github.com/payoutd/payoutd/app/apptest"
	"github.com/payoutd/payoutd/jobs"
	"github.com/payoutd/payoutd/kyc"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/store/storetest"
)

// TestInsertOnlyFansOut: a CLI process (no workers) opened by app.Open
// queues the webhook deliveries of the events it writes, for the server's
// workers to send; nothing else needs wiring by hand.
func TestInsertOnlyFansOut(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	a, sealer := apptest.Open(t, app.Config{})
	var hook store.WebhookEndpoint
	err := a.DB.WithTx(ctx, func(tx *store.Tx) error {
		u, _, err := tx.People().EnsureUser("cli@example.com", false, "Asha Rao", sealer)
		if err != nil {
			return err
		}
		if hook, _, err = tx.Webhooks().CreateWebhookEndpoint(store.WebhookEndpoint{UserID: u.ID, URL: "http://127.0.0.1:9/hook"}, sealer); err != nil {
			return err
		}
		_, err = kyc.SandboxWalk(tx, u.ID, true, "") // PENDING → … → APPROVED: four kyc.updated events
		return err
	}, store.WithActor("cli:kyc", ""))
	is.NoErr(err)
	queued := storetest.JobsOf(t, a.River, func(d jobs.WebhookDeliverArgs) bool { return d.EndpointID == hook.ID })
	is.Equal(len(queued), 4)
}
