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
	"github.com/payoutd/payoutd/jobs"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/store/storetest"
)

// eventsOf lists the env user's events of one type through the API.
func (w *whEnv) eventsOf(typ string) []map[string]any {
	w.t.Helper()
	r := w.req("GET", "/api/v1/events?limit=100&type="+typ, nil)
	if r.Status != http.StatusOK {
		w.t.Fatalf("events: %d %s", r.Status, r.Body)
	}
	var out struct{ Items []map[string]any }
	if err := json.Unmarshal(r.Body, &out); err != nil {
		w.t.Fatal(err)
	}
	return out.Items
}

func TestWebhookRetriesThenSucceeds(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newWebhookEnv(t, whConfig{schedule: fastSchedule(4, 20*time.Millisecond)})
	rx := newReceiver(t, failFirst(2))
	id, secret := e.createWebhook(rx.URL, "payout.settled")
	rx.trust(secret)

	start := time.Now()
	pay := e.pay("10.00", nil)
	wait.Until(t, 30*time.Second, "payout.settled accepted", func() bool { return rx.accepted("payout.settled") })
	t.Logf("payout confirmed → settled event accepted on the 3rd attempt: %s", time.Since(start))

	got := rx.ofType("payout.settled")
	is.Equal(len(got), 3)
	evs := e.eventsOf("payout.settled")
	is.Equal(len(evs), 1)
	for i, d := range got {
		is.Equal(d.Verified, []bool{true})        // every attempt is signed
		is.Equal(d.ID, evs[0]["id"])              // webhook-id is the event id, on every attempt
		is.True(bytes.Equal(d.Body, got[0].Body)) // the body never changes
		is.Equal(d.Data["paymentId"], pay)
		if i > 0 {
			t.Logf("retry %d came %s after the previous attempt", i, d.At.Sub(got[i-1].At))
		}
	}
	is.Equal([]int{got[0].Answered, got[1].Answered, got[2].Answered}, []int{500, 500, 200})

	ds := e.waitDeliveries(id, 3)
	is.Equal(len(ds), 3)
	last := ds[0] // newest first
	is.Equal(last.Attempt, 3)
	is.Equal(last.Status, "succeeded")
	is.Equal(*last.ResponseCode, 200)
	is.Equal(last.Error, "")
	is.Equal(last.NextRetryAt, "")
	is.Equal(last.EventID, evs[0]["id"])
	is.Equal(last.EventType, "payout.settled")
	for _, d := range ds[1:] {
		is.Equal(d.Status, "failed")
		is.Equal(*d.ResponseCode, 500)
		is.Equal(d.Error, "HTTP 500")
		is.True(d.NextRetryAt != "") // when the retry was scheduled
		is.True(d.DurationMS != nil && *d.DurationMS >= 0)
	}
	is.Equal(ds[2].Attempt, 1)

	// The one-event filter and paging.
	is.Equal(len(e.deliveries(id, "?eventId="+evs[0]["id"].(string)+"&limit=2")), 2)
	is.Equal(len(e.deliveries(id, "?eventId=evt_00000000000000000000000000")), 0)
}

// TestWebhookManualReview: a .66 payout stops in MANUAL_REVIEW and emits
// payout.manual_review, never payout.settled or payout.failed.
func TestWebhookManualReview(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newWebhookEnv(t, whConfig{schedule: fastSchedule(3, 20*time.Millisecond)})
	rx := newReceiver(t, failFirst(0))
	_, secret := e.createWebhook(rx.URL)
	rx.trust(secret)

	review := e.pay("10.66", nil)
	e.waitStatus(review, store.StatusManualReview, 5*time.Second)
	// A payout confirmed after it settles; once its settled event is in,
	// the review payout has had every chance to emit one too.
	control := e.pay("10.00", nil)
	e.waitStatus(control, store.StatusCompleted, 5*time.Second)
	wait.Until(t, 30*time.Second, "both payouts' events delivered", func() bool {
		return rx.accepted("payout.manual_review") && rx.accepted("payout.completed")
	})

	for _, d := range rx.requests() {
		is.Equal(d.Verified, []bool{true})
		if d.Data["paymentId"] == review {
			is.Equal(d.Type, "payout.manual_review")
		}
	}
	is.Equal(rx.ofType("payout.manual_review")[0].Data["status"], store.StatusManualReview)
	for _, typ := range []string{"payout.settled", "payout.failed"} {
		for _, ev := range e.eventsOf(typ) {
			is.True(ev["data"].(map[string]any)["paymentId"] != review)
		}
	}
	is.Equal(len(e.eventsOf("payout.manual_review")), 1)
}

// TestWebhookRotationOverlap: after a rotation both secrets verify every
// delivery until the grace period ends; then only the new one does.
func TestWebhookRotationOverlap(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newWebhookEnv(t, whConfig{schedule: fastSchedule(3, 20*time.Millisecond)})
	rx := newReceiver(t, failFirst(0))
	id, oldSecret := e.createWebhook(rx.URL, "payout.settled")
	rx.trust(oldSecret)

	r := e.req("POST", "/api/v1/webhooks/"+id+"/rotate", nil)
	is.Equal(r.Status, http.StatusOK)
	is.Equal(r.Header.Get("Cache-Control"), "no-store")
	rot := r.JSON(t)
	newSecret := rot["secret"].(string)
	is.True(newSecret != oldSecret)
	is.True(strings.HasPrefix(newSecret, "whsec_"))
	grace, err := time.Parse(time.RFC3339, rot["previousSecretExpiresAt"].(string))
	is.NoErr(err)
	is.True(grace.Sub(time.Now()) > 23*time.Hour && grace.Sub(time.Now()) <= 24*time.Hour)
	rx.trust(newSecret) // Verified is [old, new]

	e.pay("10.00", nil)
	wait.Until(t, 30*time.Second, "settled during grace", func() bool { return rx.accepted("payout.settled") })
	d := rx.ofType("payout.settled")[0]
	is.Equal(len(strings.Split(d.Signature, " ")), 2)
	is.Equal(d.Verified, []bool{true, true}) // each secret alone verifies

	get := e.req("GET", "/api/v1/webhooks/"+id, nil).JSON(t)
	is.Equal(get["previousSecretExpiresAt"], rot["previousSecretExpiresAt"])
	_, hasSecret := get["secret"]
	is.True(!hasSecret)

	// End the grace period (24 h are not waited for in a test).
	if _, err := e.SQL.Exec("UPDATE webhook_secrets SET expires_at = ? WHERE endpoint_id = ? AND expires_at IS NOT NULL",
		time.Now().Add(-time.Second).UnixMilli(), id); err != nil {
		t.Fatal(err)
	}
	e.pay("11.00", nil)
	wait.Until(t, 30*time.Second, "settled after grace", func() bool { return len(rx.ofType("payout.settled")) == 2 })
	d = rx.ofType("payout.settled")[1]
	is.Equal(len(strings.Split(d.Signature, " ")), 1)
	is.Equal(d.Verified, []bool{false, true}) // the old secret no longer verifies
	_, hasGrace := e.req("GET", "/api/v1/webhooks/"+id, nil).JSON(t)["previousSecretExpiresAt"]
	is.True(!hasGrace)
}

// TestWebhookDisabledAfterLastFailure: when the last retry fails the
// endpoint is disabled and webhook.disabled says why, on the event log and
// to the user's other endpoints; no more deliveries are queued for it.
func TestWebhookDisabledAfterLastFailure(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newWebhookEnv(t, whConfig{schedule: fastSchedule(2, 10*time.Millisecond)})
	down := newReceiver(t, func(int) int { return http.StatusServiceUnavailable })
	ops := newReceiver(t, failFirst(0))
	deadID, s1 := e.createWebhook(down.URL, "payout.settled")
	down.trust(s1)
	_, s2 := e.createWebhook(ops.URL, "webhook.disabled")
	ops.trust(s2)

	e.pay("10.00", nil)
	wait.Until(t, 30*time.Second, "webhook.disabled delivered", func() bool { return ops.accepted("webhook.disabled") })

	is.Equal(len(down.ofType("payout.settled")), 3) // first attempt + 2 retries
	ep := e.req("GET", "/api/v1/webhooks/"+deadID, nil).JSON(t)
	is.Equal(ep["status"], "disabled")
	is.True(strings.Contains(ep["disabledReason"].(string), "failed on all 3 attempts; last error: HTTP 503"))
	is.True(ep["disabledAt"] != nil)

	evs := e.eventsOf("webhook.disabled")
	is.Equal(len(evs), 1)
	data := evs[0]["data"].(map[string]any)
	is.Equal(data["webhookId"], deadID)
	is.Equal(data["eventType"], "payout.settled")
	is.Equal(data["attempts"], 3.0)
	is.Equal(data["lastResponseCode"], 503.0)
	is.Equal(ops.ofType("webhook.disabled")[0].ID, evs[0]["id"])

	ds := e.deliveries(deadID, "")
	is.Equal(len(ds), 3)
	is.Equal(ds[0].NextRetryAt, "") // the last attempt schedules nothing

	// A disabled endpoint gets no jobs: the hook skips it in the event's
	// own transaction, so this is checked without waiting.
	second := e.pay("12.00", nil)
	e.waitStatus(second, store.StatusCompleted, 5*time.Second)
	disabledAt, err := time.Parse(time.RFC3339Nano, ep["disabledAt"].(string))
	is.NoErr(err)
	queued := 0
	for _, j := range storetest.JobsOf(t, e.River, func(d jobs.WebhookDeliverArgs) bool { return d.EndpointID == deadID }) {
		if j.CreatedAt.After(disabledAt) {
			queued++
		}
	}
	is.Equal(queued, 0)

	// Enabling it again takes new events.
	r := e.req("POST", "/api/v1/webhooks/"+deadID+"/enable", nil)
	is.Equal(r.Status, http.StatusOK)
	is.Equal(r.JSON(t)["status"], "enabled")
	_, hasReason := r.JSON(t)["disabledReason"]
	is.True(!hasReason)
	before := len(down.requests())
	e.pay("13.00", nil)
	wait.Until(t, 30*time.Second, "delivery after enable", func() bool { return len(down.requests()) > before })
}

// TestWebhookTimeoutAndConnectionErrors: a receiver slower than the timeout
// and one that refuses connections are failed attempts with their reason.
func TestWebhookTimeoutAndConnectionErrors(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newWebhookEnv(t, whConfig{schedule: fastSchedule(1, 10*time.Millisecond), timeout: 200 * time.Millisecond})
	slow := newReceiver(t, failFirst(0))
	slow.delay = func(n int) time.Duration {
		if n == 1 {
			return time.Minute // answers only once the sender gives up
		}
		return 0
	}
	slowID, secret := e.createWebhook(slow.URL, "payout.settled")
	slow.trust(secret)

	// Port 1 (tcpmux) is privileged and never handed out as an ephemeral
	// port: nothing listens there.
	refusedID, _ := e.createWebhook("http://127.0.0.1:1/hook", "payout.settled")

	e.pay("10.00", nil)
	wait.Until(t, 30*time.Second, "slow receiver's second attempt", func() bool { return slow.accepted("payout.settled") })
	ds := e.waitDeliveries(slowID, 2)
	is.Equal(len(ds), 2)
	is.Equal(ds[1].Status, "failed")
	is.Equal(ds[1].Error, "timeout after 200ms")
	is.Equal(ds[1].ResponseCode, nil)
	is.True(*ds[1].DurationMS >= 200 && *ds[1].DurationMS < 60_000) // cut at the timeout, not answered
	is.Equal(ds[0].Status, "succeeded")

	wait.Until(t, 30*time.Second, "refused endpoint disabled", func() bool {
		return e.req("GET", "/api/v1/webhooks/"+refusedID, nil).JSON(t)["status"] == "disabled"
	})
	ds = e.deliveries(refusedID, "")
	is.Equal(len(ds), 2)
	is.True(strings.Contains(ds[0].Error, "connection refused"))
	is.Equal(ds[0].ResponseCode, nil)
}

// TestWebhookSurvivesRestart: the server stops between retries; a new
// server on the same data directory finishes the delivery with the same
// webhook-id and a signature from the same (sealed) secret.
func TestWebhookSurvivesRestart(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	cfg := whConfig{schedule: fastSchedule(20, 50*time.Millisecond)}
	e1 := newWebhookEnv(t, cfg)
	up := make(chan struct{})
	rx := newReceiver(t, func(int) int {
		select {
		case <-up:
			return http.StatusOK
		default:
			return http.StatusBadGateway
		}
	})
	id, secret := e1.createWebhook(rx.URL, "payout.settled")
	rx.trust(secret)
	e1.pay("10.00", nil)
	wait.Until(t, 30*time.Second, "two failed attempts", func() bool { return len(rx.ofType("payout.settled")) >= 2 })
	e1.close()
	failed := len(rx.ofType("payout.settled"))
	close(up)
	is.True(!rx.accepted("payout.settled"))

	start := time.Now()
	cfg.dir = e1.Dir
	e2 := newWebhookEnv(t, cfg)
	wait.Until(t, 30*time.Second, "delivery after restart", func() bool { return rx.accepted("payout.settled") })
	t.Logf("restart → delivery accepted: %s", time.Since(start))

	got := rx.ofType("payout.settled")
	is.Equal(len(got), failed+1)
	for _, d := range got {
		is.Equal(d.ID, got[0].ID)
		is.Equal(d.Verified, []bool{true})
	}
	ds := e2.waitDeliveries(id, failed+1)
	is.Equal(len(ds), failed+1)
	is.Equal(ds[0].Attempt, failed+1) // numbering carries on across the restart
	is.Equal(ds[0].Status, "succeeded")
}
