package console

import (
	"net/http"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/jobs"
	"github.com/payoutd/payoutd/store"
)

// handleWebhookEnable turns a disabled endpoint back on, as POST
// /webhooks/{id}/enable: new events reach it again; the ones it missed
// can be sent again from its deliveries.
func (c *Console) handleWebhookEnable(w http.ResponseWriter, r *http.Request, u user) {
	var ep store.WebhookEndpoint
	err := c.db.WithTx(r.Context(), func(tx *store.Tx) (err error) {
		ep, err = tx.Webhooks().EnableWebhookEndpoint(u.ID, r.PathValue("id"))
		return err
	}, c.txOpts(r, u))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.flash(r, "Endpoint turned back on: new events are sent to it again.")
	http.Redirect(w, r, Prefix+"settings/webhooks/"+ep.ID, http.StatusSeeOther)
}

// handleRedeliver sends one event to the endpoint once more (one
// attempt, even if it was accepted before).
func (c *Console) handleRedeliver(w http.ResponseWriter, r *http.Request, u user) {
	ctx := r.Context()
	ep, err := c.db.Webhooks().FindWebhookEndpoint(ctx, u.ID, r.PathValue("id"))
	var ev store.Event
	if err == nil {
		ev, err = c.db.History().FindEvent(ctx, r.PostForm.Get("eventId"))
		if err == nil && (ev.UserID != u.ID || ev.Livemode != ep.Livemode) {
			err = apperr.Errorf(apperr.ErrNotFound, "event not found")
		}
	}
	if err == nil {
		err = c.db.WithTx(ctx, func(tx *store.Tx) error { return jobs.Redeliver(tx, ep, ev.ID) }, c.txOpts(r, u))
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.flash(r, "Event "+ev.ID+" ("+ev.Type+") is being sent again; its attempt appears below.")
	http.Redirect(w, r, Prefix+"settings/webhooks/"+ep.ID, http.StatusSeeOther)
}
