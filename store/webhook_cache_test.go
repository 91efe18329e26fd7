package store

import (
	"context"
	"testing"

	"github.com/matryer/is"
)

// TestWebhookTargetsCacheForgetsOnCreate: a user with no endpoint is
// remembered as such, and creating (or re-enabling) one makes the next event
// find it at once.
func TestWebhookTargetsCacheForgetsOnCreate(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	db, sealer := openTestDB(t)
	u := testUser(t, db, sealer)
	ev := Event{UserID: u.ID, Livemode: u.Livemode, Type: "payout.settled"}
	targets := func() []string {
		var out []string
		is.NoErr(db.WithTx(ctx, func(tx *Tx) (err error) {
			out, err = tx.Webhooks().WebhookTargets(ev)
			return err
		}))
		return out
	}
	is.Equal(len(targets()), 0)
	is.Equal(len(targets()), 0) // now answered from the cache
	var ep WebhookEndpoint
	is.NoErr(db.WithTx(ctx, func(tx *Tx) (err error) {
		ep, _, err = tx.Webhooks().CreateWebhookEndpoint(WebhookEndpoint{UserID: u.ID, Livemode: u.Livemode, URL: "https://example.com/"}, sealer)
		return err
	}))
	is.Equal(targets(), []string{ep.ID})
	is.NoErr(db.WithTx(ctx, func(tx *Tx) error { return tx.Webhooks().DisableWebhookEndpoint(ep.ID, "test", nil) }))
	is.Equal(len(targets()), 0)
	is.NoErr(db.WithTx(ctx, func(tx *Tx) (err error) {
		_, err = tx.Webhooks().EnableWebhookEndpoint(u.ID, ep.ID)
		return err
	}))
	is.Equal(targets(), []string{ep.ID})
}
