package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/store"
)

// TestPaymentVersionOrdersEvents: a payment's version is 1 at initiate and
// one more at each state change, on the payment, in its events and in the
// webhook bodies, which also carry the event id and livemode. The sandbox
// takes a payout from PROCESSING to COMPLETED in one transaction, so those
// four events share one timestamp: only the version orders them.
func TestPaymentVersionOrdersEvents(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newWebhookEnv(t, whConfig{schedule: fastSchedule(3, 20*time.Millisecond)})
	rx := newReceiver(t, failFirst(0))
	_, secret := e.createWebhook(rx.URL)
	rx.trust(secret)

	r := e.req("POST", "/api/v1/payments/initiate", map[string]any{"amount": "10.00", "currency": "USD", "destinationAddress": testAddress})
	is.Equal(r.Status, http.StatusCreated)
	id := r.JSON(t)["id"].(string)
	is.Equal(r.JSON(t)["version"], float64(1))
	r = e.confirm(id, "10.00")
	is.Equal(r.Status, http.StatusCreated)
	is.Equal(r.JSON(t)["version"], float64(2))
	e.waitStatus(id, store.StatusCompleted, 5*time.Second)
	is.Equal(e.req("GET", "/api/v1/payments/payouts/"+id, nil).JSON(t)["version"], float64(6))

	type seen struct{ typ, status, at string }
	byVersion := map[float64]seen{}
	for _, ev := range e.events(e.Key, "?limit=100").Items {
		if ev.Data["paymentId"] != id || !strings.HasPrefix(ev.Type, "payout.") {
			continue
		}
		v, ok := ev.Data["version"].(float64)
		is.True(ok) // every payout.* event carries the version
		_, dup := byVersion[v]
		is.True(!dup) // no two events of one payment share a version
		byVersion[v] = seen{ev.Type, ev.Data["status"].(string), ev.Data["updatedAt"].(string)}
	}
	want := []seen{{"payout.processing", "PROCESSING", ""}, {"payout.submitted", "SUBMITTED", ""},
		{"payout.settled", "CONFIRMED", ""}, {"payout.completed", "COMPLETED", ""}}
	for i, w := range want {
		got := byVersion[float64(3+i)]
		is.Equal(got.typ, w.typ)
		is.Equal(got.status, w.status)
	}
	t.Logf("processing..completed share updatedAt: %v", byVersion[3].at == byVersion[6].at)

	wait.Until(t, 30*time.Second, "payout.completed delivered", func() bool { return rx.accepted("payout.completed") })
	logged := map[string]map[string]any{}
	for _, ev := range e.events(e.Key, "?limit=100").Items {
		logged[ev.ID] = ev.Data
	}
	for _, d := range rx.requests() {
		var body struct {
			ID       string          `json:"id"`
			Type     string          `json:"type"`
			Livemode *bool           `json:"livemode"`
			Data     json.RawMessage `json:"data"`
		}
		dec := json.NewDecoder(bytes.NewReader(d.Body))
		is.NoErr(dec.Decode(&body))
		is.Equal(body.ID, d.ID)                          // the body names its event, as webhook-id does
		is.True(body.Livemode != nil && !*body.Livemode) // sandbox data says so
		var data map[string]any
		is.NoErr(json.Unmarshal(body.Data, &data))
		if data["paymentId"] == id && strings.HasPrefix(body.Type, "payout.") {
			is.Equal(data["version"], logged[body.ID]["version"])
		}
	}
}
