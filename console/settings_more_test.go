package console

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/store"
)

// TestReservePolicy: Settings sets the reserve as POST
// /tax/sequestration/policy does, refuses a bad rate next to its field
// with what was typed kept, and a reload of the redirect changes nothing.
func TestReservePolicy(t *testing.T) {
	is := is.New(t)
	h := newHarness(t, harnessOpts{})
	u, key := h.newUser("asha@example.com", false)
	b := h.signIn(u)
	b.get("/console/settings")
	is.True(b.has("The reserve holds ₹0.00"))
	is.Equal(b.post("/console/settings/reserve", url.Values{"enabled": {"on"}, "rate": {"12.555"}}), http.StatusBadRequest)
	is.Equal(b.errorNextTo("rate"), "must be a number from 0 to 100 with at most 2 decimals")
	is.True(b.has(`value="12.555"`))
	is.Equal(b.post("/console/settings/reserve", url.Values{"enabled": {"on"}, "rate": {"12.5%"}}), http.StatusSeeOther)
	is.Equal(b.location(), "/console/settings#reserve")
	b.follow()
	is.True(b.has("Tax reserve on: 12.5% of each settlement"))
	_, body := h.api("GET", "/api/v1/tax/sequestration", key, "")
	is.True(strings.Contains(body, `"enabled":true`) && strings.Contains(body, `"rate":12.50`))
	b.get("/console/settings") // the reload
	is.True(b.has(`name="enabled" checked`))
	is.True(b.has(`value="12.50"`))
	rows, _, err := h.db.History().ListAudit(context.Background(), store.AuditFilter{UserID: u.ID, Action: "sequestration.policy_set", Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(len(rows), 1)
}

// TestWebhookEnableAndRedeliver: a disabled endpoint is turned back on
// from its page; a delivery is sent again on request, once, even one the
// receiver accepted before.
func TestWebhookEnableAndRedeliver(t *testing.T) {
	is := is.New(t)
	h := newHarness(t, harnessOpts{river: true})
	u, _ := h.newUser("asha@example.com", false)
	var got atomic.Int32
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		got.Add(1)
	}))
	t.Cleanup(rcv.Close)
	b := h.signIn(u)
	b.get("/console/settings")
	is.Equal(b.post("/console/settings/webhooks", url.Values{"url": {rcv.URL + "/hook"}, "eventTypes": {"deposit.received"}}), http.StatusSeeOther)
	eps, err := h.db.Webhooks().ListWebhookEndpoints(context.Background(), u.ID)
	is.NoErr(err)
	ep := eps[0]
	vs, err := h.db.Vaults().ListVaults(context.Background(), u.ID)
	is.NoErr(err)
	err = h.db.WithTx(context.Background(), func(tx *store.Tx) error {
		_, err := tx.Vaults().SandboxDeposit(u.ID, vs[0].ID, 5_00, "GCLIENT", "INV-1")
		return err
	}, store.WithActor("test", ""))
	is.NoErr(err)
	wait.Until(t, 10*time.Second, "the deposit's delivery", func() bool { return got.Load() == 1 })

	// The receiver has the delivery before its attempt is recorded: the
	// page lists it (and offers to send it again) once it is.
	page := "/console/settings/webhooks/" + ep.ID
	wait.Until(t, 10*time.Second, "the delivery on the endpoint's page", func() bool {
		b.get(page)
		return b.has(`name="eventId"`)
	})
	is.True(!b.has("Turn it back on"))
	is.Equal(b.post(page+"/redeliver", url.Values{"eventId": {b.hidden("eventId")}}), http.StatusSeeOther)
	b.follow()
	is.True(b.has("is being sent again"))
	wait.Until(t, 10*time.Second, "the delivery sent again", func() bool { return got.Load() == 2 })

	err = h.db.WithTx(context.Background(), func(tx *store.Tx) error {
		return tx.Webhooks().DisableWebhookEndpoint(ep.ID, "test: failed on every attempt", nil)
	}, store.WithActor("test", ""))
	is.NoErr(err)
	b.get(page)
	is.True(b.has("Turn it back on"))
	is.True(!b.has("Send again")) // nothing is sent to a disabled endpoint
	is.Equal(b.post(page+"/enable", url.Values{}), http.StatusSeeOther)
	b.follow()
	is.True(b.has("Endpoint turned back on"))
	is.True(b.has("Send again"))
	again, err := h.db.Webhooks().FindWebhookEndpoint(context.Background(), u.ID, ep.ID)
	is.NoErr(err)
	is.Equal(again.Status, store.WebhookEnabled)
}
