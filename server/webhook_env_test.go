package server_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/payoutd/payoutd/internal/wait"
)

// whEnv is a payoutd whose River client delivers webhooks on a test
// schedule, and which a test can stop and close as a server shutting down
// does.
type whEnv struct {
	*env
	stopOnce sync.Once
	stopRC   func()
}

type whConfig struct {
	schedule []time.Duration
	timeout  time.Duration
	dir      string // reuse a data directory (restart)
}

// fastSchedule retries every 20 ms, n times.
func fastSchedule(n int, every time.Duration) []time.Duration {
	s := make([]time.Duration, n)
	for i := range s {
		s[i] = every
	}
	return s
}

func newWebhookEnv(t *testing.T, cfg whConfig) *whEnv {
	t.Helper()
	e := newEnv(t, func(o *envOpts) { o.dir, o.webhookSchedule, o.webhookTimeout = cfg.dir, cfg.schedule, cfg.timeout })
	w := &whEnv{env: e}
	w.stopRC = func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := e.App.Stop(ctx); err != nil {
			t.Errorf("stop River: %v", err)
		}
	}
	return w
}

func (w *whEnv) stop() { w.stopOnce.Do(w.stopRC) }

// close stops River and closes the database's connections, as a server
// shutting down does; another env may then open the same directory (the
// harness's cleanup closes it again, which does nothing).
func (w *whEnv) close() {
	w.stop()
	if err := w.DB.Close(); err != nil {
		w.t.Fatal(err)
	}
}

// createWebhook registers url and returns the endpoint id and its secret.
func (w *whEnv) createWebhook(url string, types ...string) (id, secret string) {
	w.t.Helper()
	body := map[string]any{"url": url}
	if len(types) > 0 {
		body["eventTypes"] = types
	}
	r := w.req("POST", "/api/v1/webhooks", body)
	if r.Status != http.StatusCreated {
		w.t.Fatalf("create webhook: %d %s", r.Status, r.Body)
	}
	m := r.JSON(w.t)
	return m["id"].(string), m["secret"].(string)
}

type deliveryItem struct {
	ID           string `json:"id"`
	EventID      string `json:"eventId"`
	EventType    string `json:"eventType"`
	Attempt      int    `json:"attempt"`
	Status       string `json:"status"`
	ResponseCode *int   `json:"responseCode"`
	DurationMS   *int64 `json:"durationMs"`
	Error        string `json:"error"`
	NextRetryAt  string `json:"nextRetryAt"`
	CreatedAt    string `json:"createdAt"`
}

// deliveries lists an endpoint's attempts through the API, newest first.
func (w *whEnv) deliveries(id, query string) []deliveryItem {
	w.t.Helper()
	r := w.req("GET", "/api/v1/webhooks/"+id+"/deliveries"+query, nil)
	if r.Status != http.StatusOK {
		w.t.Fatalf("deliveries: %d %s", r.Status, r.Body)
	}
	var out struct{ Items []deliveryItem }
	if err := json.Unmarshal(r.Body, &out); err != nil {
		w.t.Fatal(err)
	}
	return out.Items
}

// waitDeliveries waits until n attempts are recorded: the receiver sees a
// request before the worker's transaction records it.
func (w *whEnv) waitDeliveries(id string, n int) []deliveryItem {
	w.t.Helper()
	var ds []deliveryItem
	wait.Until(w.t, 30*time.Second, "recorded attempts", func() bool {
		ds = w.deliveries(id, "")
		return len(ds) >= n
	})
	return ds
}

// verifyStandardWebhook checks a webhook-signature header against one
// whsec_ secret exactly as the Standard Webhooks specification describes
// it, written here independently of the sender's code: the key is the
// base64 after "whsec_", the signed content is "id.timestamp.body", the
// header holds space-separated "v1,<base64>" entries of which one must match.
func verifyStandardWebhook(secret, msgID, timestamp string, body []byte, header string) bool {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil || !strings.HasPrefix(secret, "whsec_") {
		return false
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(msgID + "." + timestamp + "."))
	mac.Write(body)
	want := mac.Sum(nil)
	for _, entry := range strings.Split(header, " ") {
		version, sig, ok := strings.Cut(entry, ",")
		if !ok || version != "v1" {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(sig)
		if err == nil && hmac.Equal(got, want) {
			return true
		}
	}
	return false
}

// received is one request a receiver got.
type received struct {
	ID, Timestamp, Signature string
	Body                     []byte
	Type                     string
	Data                     map[string]any
	Verified                 []bool // per trusted secret, in trust order
	Answered                 int
	At                       time.Time
}

// receiver is a real webhook consumer on a loopback port. It answers each
// request with answer(n) (n counts from 1) once the signature verifies
// against at least one trusted secret, 401 otherwise.
type receiver struct {
	t   *testing.T
	URL string

	mu      sync.Mutex
	secrets []string
	got     []received
	answer  func(n int) int
	delay   func(n int) time.Duration
}

func newReceiver(t *testing.T, answer func(n int) int) *receiver {
	rx := &receiver{t: t, answer: answer}
	srv := httptest.NewServer(http.HandlerFunc(rx.serve))
	t.Cleanup(srv.Close)
	rx.URL = srv.URL + "/hooks/payoutd"
	return rx
}

// failFirst answers 500 to the first n requests and 200 after.
func failFirst(n int) func(int) int {
	return func(i int) int {
		if i <= n {
			return http.StatusInternalServerError
		}
		return http.StatusOK
	}
}

func (rx *receiver) trust(secret string) {
	rx.mu.Lock()
	defer rx.mu.Unlock()
	rx.secrets = append(rx.secrets, secret)
}

func (rx *receiver) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, "read", http.StatusBadRequest)
		return
	}
	d := received{ID: r.Header.Get("webhook-id"), Timestamp: r.Header.Get("webhook-timestamp"),
		Signature: r.Header.Get("webhook-signature"), Body: body, At: time.Now()}
	var payload struct {
		Type      string         `json:"type"`
		Timestamp string         `json:"timestamp"`
		Data      map[string]any `json:"data"`
	}
	if err := json.Unmarshal(body, &payload); err == nil {
		d.Type, d.Data = payload.Type, payload.Data
	}
	rx.mu.Lock()
	n := len(rx.got) + 1
	ok := false
	for _, s := range rx.secrets {
		v := verifyStandardWebhook(s, d.ID, d.Timestamp, body, d.Signature)
		d.Verified = append(d.Verified, v)
		ok = ok || v
	}
	// Replay protection as a receiver would do it: the signed timestamp
	// must be recent.
	if sec, err := strconv.ParseInt(d.Timestamp, 10, 64); err != nil || time.Since(time.Unix(sec, 0)).Abs() > 5*time.Minute {
		ok = false
	}
	d.Answered = http.StatusUnauthorized
	if ok {
		d.Answered = rx.answer(n)
	}
	var delay time.Duration
	if rx.delay != nil {
		delay = rx.delay(n)
	}
	rx.got = append(rx.got, d)
	rx.mu.Unlock()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
		}
	}
	w.WriteHeader(d.Answered)
}

// requests returns a copy of what arrived so far.
func (rx *receiver) requests() []received {
	rx.mu.Lock()
	defer rx.mu.Unlock()
	return append([]received(nil), rx.got...)
}

// ofType is the requests of one event type.
func (rx *receiver) ofType(typ string) []received {
	var out []received
	for _, d := range rx.requests() {
		if d.Type == typ {
			out = append(out, d)
		}
	}
	return out
}

// accepted reports whether some request of typ was answered 2xx.
func (rx *receiver) accepted(typ string) bool {
	for _, d := range rx.ofType(typ) {
		if d.Answered/100 == 2 {
			return true
		}
	}
	return false
}
