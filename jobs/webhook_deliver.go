package jobs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/riverqueue/river"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/wire"
)

// WebhookQueue is the River queue of deliveries, apart from the payment
// pipeline's, so slow receivers (up to the 10 s timeout each) cannot take
// the workers that move payouts.
const WebhookQueue = "webhooks"

// DefaultWebhookSchedule is the wait before each retry of a failed delivery:
// seven attempts over about 7 h 13 min, then the endpoint is disabled.
var DefaultWebhookSchedule = []time.Duration{
	5 * time.Second, 30 * time.Second, 2 * time.Minute, 10 * time.Minute, time.Hour, 6 * time.Hour,
}

// DefaultWebhookTimeout bounds one delivery request, connect to last byte.
const DefaultWebhookTimeout = 10 * time.Second

// WebhookDeliverArgs sends one event to one endpoint. Both are reloaded when
// the job runs: a deleted or disabled endpoint is not sent to, and a rotated
// secret signs at once.
type WebhookDeliverArgs struct {
	EndpointID string `json:"endpointId"`
	EventID    string `json:"eventId"`
	// Manual is a delivery a person asked for again (Redeliver): one
	// attempt, made even if the event was delivered before, never retried
	// and never disabling the endpoint.
	Manual bool `json:"manual,omitempty"`
}

// Kind is the stable job kind.
func (WebhookDeliverArgs) Kind() string { return "webhook_deliver" }

// InsertOpts puts every delivery on the webhooks queue.
func (WebhookDeliverArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{Queue: WebhookQueue} }

// EnqueueWebhooks is the store's event hook: inside the transaction that
// writes an event it inserts one delivery job per subscribed endpoint, so
// the deliveries exist exactly when the event does.
func EnqueueWebhooks(tx *store.Tx, ev store.Event) error {
	ids, err := tx.Webhooks().WebhookTargets(ev)
	if err != nil {
		return fmt.Errorf("webhook targets: %w", err)
	}
	for _, id := range ids {
		if err := tx.Enqueue(WebhookDeliverArgs{EndpointID: id, EventID: ev.ID}, nil); err != nil {
			return err
		}
	}
	return nil
}

// ParseWebhookSchedule reads a retry schedule like "5s,30s,2m".
func ParseWebhookSchedule(s string) ([]time.Duration, error) {
	var out []time.Duration
	for _, f := range strings.Split(s, ",") {
		d, err := time.ParseDuration(strings.TrimSpace(f))
		if err != nil || d <= 0 || d > 72*time.Hour {
			return nil, fmt.Errorf("webhook retry schedule: %q is not a duration between 0 and 72h", f)
		}
		out = append(out, d)
	}
	if len(out) > 20 {
		return nil, errors.New("webhook retry schedule: at most 20 retries")
	}
	return out, nil
}

// WebhookDeliverWorker makes one delivery attempt per run and records it;
// a failure snoozes the job until the next retry of the schedule, and the
// failure after the last retry disables the endpoint.
type WebhookDeliverWorker struct {
	river.WorkerDefaults[WebhookDeliverArgs]
	DB       *store.DB
	Sealer   *store.Sealer
	Schedule []time.Duration
	Log      *slog.Logger
	// Observe, when set, is told each recorded attempt's outcome:
	// delivered, failed (a retry follows) or disabled (it was the last).
	Observe func(outcome string)

	httpTimeout   time.Duration
	live, sandbox *http.Client
}

// NewWebhookDeliverWorker builds the worker with its two HTTP clients.
func NewWebhookDeliverWorker(db *store.DB, sealer *store.Sealer, schedule []time.Duration, timeout time.Duration, log *slog.Logger) *WebhookDeliverWorker {
	if schedule == nil {
		schedule = DefaultWebhookSchedule
	}
	if timeout <= 0 {
		timeout = DefaultWebhookTimeout
	}
	if log == nil {
		log = slog.Default()
	}
	return &WebhookDeliverWorker{DB: db, Sealer: sealer, Schedule: schedule, Log: log, httpTimeout: timeout,
		live: newWebhookClient(PublicTargets, timeout), sandbox: newWebhookClient(SandboxTargets, timeout)}
}

// AllowSandboxPrivate lets sandbox deliveries reach private and
// link-local addresses too (serve -sandbox-private-webhooks).
func (w *WebhookDeliverWorker) AllowSandboxPrivate() {
	w.sandbox = newWebhookClient(AnyTarget, w.httpTimeout)
}

// Timeout leaves room beyond the HTTP timeout for loading and recording.
func (w *WebhookDeliverWorker) Timeout(*river.Job[WebhookDeliverArgs]) time.Duration {
	return w.httpTimeout + 30*time.Second
}

// Work is idempotent: an endpoint that is gone or disabled, or an event it
// already accepted, ends the job without a request.
func (w *WebhookDeliverWorker) Work(ctx context.Context, job *river.Job[WebhookDeliverArgs]) error {
	a := job.Args
	ep, err := w.DB.Webhooks().LoadWebhookEndpoint(ctx, a.EndpointID)
	if apperr.Code(err) == apperr.ErrNotFound || (err == nil && ep.Status != store.WebhookEnabled) {
		return nil
	}
	if err != nil {
		return err
	}
	ev, err := w.DB.History().FindEvent(ctx, a.EventID)
	if apperr.Code(err) == apperr.ErrNotFound {
		return river.JobCancel(err) // an event is never deleted: no retry brings it back
	}
	if err != nil {
		return err
	}
	if !a.Manual {
		if delivered, err := w.DB.Webhooks().WebhookDelivered(ctx, ep.ID, ev.ID); err != nil || delivered {
			return err
		}
	}
	keys, err := w.DB.Webhooks().WebhookSigningSecrets(ctx, ep.ID, w.DB.Now(), w.Sealer)
	if err != nil {
		return err
	}
	body, err := json.Marshal(webhookPayload{ID: ev.ID, Type: ev.Type, Timestamp: wire.Time(ev.CreatedAt), Livemode: ev.Livemode, Data: ev.Data})
	if err != nil {
		return err
	}
	res := w.send(ctx, ep, ev.ID, body, keys)
	if !res.ok && ctx.Err() != nil {
		// The worker is stopping: not the receiver's fault, so no attempt is
		// recorded and River runs the job again.
		return ctx.Err()
	}
	// The attempt happened: record it even if the job's context ends now.
	return w.record(context.WithoutCancel(ctx), ep, ev, res, a.Manual)
}

// webhookPayload is the Standard Webhooks body, with the event's id (also
// the webhook-id header, which a body stored without its headers loses)
// and its mode, so a receiver shared by sandbox and live can tell them apart.
type webhookPayload struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	Timestamp string          `json:"timestamp"`
	Livemode  bool            `json:"livemode"`
	Data      json.RawMessage `json:"data"`
}

type sendResult struct {
	ok       bool
	code     int
	duration time.Duration
	err      string
}

// send makes one signed request. webhook-id is the event id, the same on
// every attempt so a receiver can drop duplicates; webhook-timestamp is the
// attempt's own time, so the signature is fresh on every retry.
func (w *WebhookDeliverWorker) send(ctx context.Context, ep store.WebhookEndpoint, msgID string, body []byte, keys [][]byte) sendResult {
	client := w.sandbox
	if ep.Livemode {
		client = w.live
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.URL, bytes.NewReader(body))
	if err != nil {
		return sendResult{err: "invalid URL"}
	}
	ts := time.Now().Unix()
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "payoutd-webhooks/1")
	req.Header.Set("webhook-id", msgID)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(ts, 10))
	req.Header.Set("webhook-signature", SignWebhook(keys, msgID, ts, body))
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return sendResult{duration: time.Since(start), err: w.describe(err)}
	}
	// Drain a little so the connection can be reused; the body is not kept.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // a short read changes nothing: the status decides
	resp.Body.Close()
	res := sendResult{code: resp.StatusCode, duration: time.Since(start), ok: resp.StatusCode >= 200 && resp.StatusCode < 300}
	if !res.ok {
		res.err = fmt.Sprintf("HTTP %d", resp.StatusCode)
	}
	return res
}

// describe turns a transport error into a short text for the delivery log:
// no Go wrapper noise, and the URL is left out (the owner knows it).
func (w *WebhookDeliverWorker) describe(err error) string {
	var ne net.Error
	switch {
	case errors.Is(err, errTargetRefused):
		// Its own message says why; a refusal is never a timeout.
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return fmt.Sprintf("timeout after %s", w.httpTimeout)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	msg := err.Error()
	if len(msg) > 300 {
		msg = msg[:300]
	}
	return msg
}

// record writes the attempt and decides what follows: done, a retry after
// the schedule's next wait, or, after the last one, disabling the endpoint.
func (w *WebhookDeliverWorker) record(ctx context.Context, ep store.WebhookEndpoint, ev store.Event, res sendResult, manual bool) error {
	var retryIn time.Duration
	var failedAttempt int // logged once committed, with why it was disabled
	var disabled string
	err := w.DB.WithTx(ctx, func(tx *store.Tx) error {
		retryIn, failedAttempt, disabled = 0, 0, "" // a run again starts afresh (see store.DB.WithTx)
		cur, err := tx.Webhooks().FindWebhookEndpoint("", ep.ID)
		if apperr.Code(err) == apperr.ErrNotFound {
			return nil // deleted while the request was in flight
		}
		if err != nil {
			return err
		}
		n, err := tx.Webhooks().WebhookAttempts(ep.ID, ev.ID)
		if err != nil {
			return err
		}
		att := store.WebhookAttempt{EndpointID: ep.ID, EventID: ev.ID, EventType: ev.Type, Attempt: n + 1,
			Status: store.DeliverySucceeded, ResponseCode: res.code, Duration: res.duration, Error: res.err}
		if res.ok {
			return tx.Webhooks().RecordWebhookAttempt(&att)
		}
		att.Status = store.DeliveryFailed
		if manual {
			return tx.Webhooks().RecordWebhookAttempt(&att)
		}
		if n < len(w.Schedule) && cur.Status == store.WebhookEnabled {
			retryIn = w.Schedule[n]
			next := tx.Now().Add(retryIn)
			att.NextRetryAt = &next
		}
		if err := tx.Webhooks().RecordWebhookAttempt(&att); err != nil {
			return err
		}
		failedAttempt = att.Attempt
		if retryIn > 0 || cur.Status != store.WebhookEnabled {
			return nil
		}
		reason := fmt.Sprintf("delivery of event %s failed on all %d attempts; last error: %s", ev.ID, att.Attempt, res.err)
		disabled = reason
		var code any
		if res.code != 0 {
			code = res.code
		}
		return tx.Webhooks().DisableWebhookEndpoint(ep.ID, reason, map[string]any{
			"eventId": ev.ID, "eventType": ev.Type, "attempts": att.Attempt, "lastError": res.err, "lastResponseCode": code,
		})
	}, store.WithActor("system:webhooks", ""))
	if err != nil {
		return err
	}
	if failedAttempt > 0 {
		w.Log.WarnContext(ctx, "webhook delivery failed", "endpoint", ep.ID, "event", ev.ID, "attempt", failedAttempt,
			"error", res.err, "retryIn", retryIn)
	}
	if disabled != "" {
		w.Log.WarnContext(ctx, "webhook endpoint disabled", "endpoint", ep.ID, "reason", disabled)
	}
	if w.Observe != nil {
		switch {
		case res.ok:
			w.Observe("delivered")
		case retryIn > 0:
			w.Observe("failed")
		default:
			w.Observe("disabled")
		}
	}
	if retryIn > 0 {
		return river.JobSnooze(retryIn)
	}
	return nil
}

// Redeliver queues one more delivery of an event to an enabled endpoint
// of its user, as a person asks for it, audited in tx.
func Redeliver(tx *store.Tx, ep store.WebhookEndpoint, eventID string) error {
	if ep.Status != store.WebhookEnabled {
		return apperr.Errorf(apperr.ErrInvalidState, "endpoint %s is disabled; turn it back on first", ep.ID)
	}
	if err := tx.Audit(ep.UserID, ep.Livemode, "webhook.redeliver", "webhook_endpoint", ep.ID, map[string]any{"eventId": eventID}); err != nil {
		return err
	}
	return tx.Enqueue(WebhookDeliverArgs{EndpointID: ep.ID, EventID: eventID, Manual: true}, nil)
}
