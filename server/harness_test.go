package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/payoutd/payoutd/app"
	"github.com/payoutd/payoutd/app/apptest"
	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/server"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/store/storetest"
)

// testAddress is SEP-23's valid ed25519 public key vector.
const testAddress = "GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ"

// env is one running payoutd: a real SQLite file, a started River client and
// a real HTTP server on a loopback port.
type env struct {
	t       *testing.T
	URL     string
	App     *app.App
	DB      *store.DB
	SQL     *storetest.DB // raw SQL behind the API's back, as an operator with the file could
	Sealer  *store.Sealer
	River   *store.RiverClient
	Server  *server.Server
	Key     string // all-scopes sandbox key of the default user
	UserID  string
	VaultID string // the default USD vault
	Dir     string // data directory holding payoutd.db and master.key
}

type envOpts struct {
	limits        map[string]int
	unknownWindow time.Duration
	workers       int
	noRiver       bool
	dir           string // reuse an existing data directory (restart tests)
	// webhookSchedule and webhookTimeout tune webhook deliveries (nil, 0:
	// the defaults).
	webhookSchedule []time.Duration
	webhookTimeout  time.Duration
	// now, when set, is the database's clock (the one every transaction
	// stamps its rows with), set before anything reads it.
	now func() time.Time
}

// stopClock makes the env's clock stand still at its start: the sandbox
// KYC provider's steps (and anything else timed by the database's clock)
// happen only when a test makes them due, never because the machine was
// slow between two requests.
func stopClock(o *envOpts) {
	now := time.Now().UTC()
	o.now = func() time.Time { return now }
}

func newEnv(t *testing.T, opts ...func(*envOpts)) *env {
	t.Helper()
	o := envOpts{unknownWindow: 500 * time.Millisecond, workers: 8}
	for _, f := range opts {
		f(&o)
	}
	// The tests send many bad credentials from one address (loopback);
	// the limit on failed authentications has its own test.
	if _, ok := o.limits["auth-failures"]; !ok {
		o.limits = maps.Clone(o.limits)
		if o.limits == nil {
			o.limits = map[string]int{}
		}
		o.limits["auth-failures"] = 1 << 20
	}
	ctx := context.Background()
	dir := o.dir
	if dir == "" {
		dir = t.TempDir()
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() && os.Getenv("PAYOUTD_TEST_LOG") != "" {
		log = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	workers := o.workers
	if o.noRiver {
		workers = 0
	}
	cfg := apptest.Config(t, dir, app.Config{Log: log,
		Workers: workers, SandboxUnknownWindow: o.unknownWindow, WebhookSchedule: o.webhookSchedule, WebhookTimeout: o.webhookTimeout,
		Pipeline: payout.Pipeline{SubmitBackoff: time.Millisecond, UnknownPoll: 100 * time.Millisecond}})
	sealer := cfg.Sealer
	a, err := app.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if o.now != nil {
		a.DB.SetClock(o.now)
	}
	srv, err := server.New(ctx, a.DB, server.Config{BaseURL: "http://payoutd.test", Sealer: sealer, Logger: log, Limits: o.limits, Rates: rates.Default()})
	if err != nil {
		a.Close()
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	if !o.noRiver {
		if err := a.Start(ctx); err != nil {
			t.Fatal(err)
		}
	}
	e := &env{t: t, URL: hs.URL, App: a, DB: a.DB, SQL: storetest.New(a.DB), Sealer: sealer, River: a.River, Server: srv}
	t.Cleanup(func() {
		hs.Close()
		if err := a.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	e.Dir = dir
	e.Key, e.UserID, e.VaultID = e.newUser("freelancer@example.com", false, store.AllScopes)
	return e
}

// newUser creates a user with one key and returns key, user id, default vault id.
func (e *env) newUser(email string, live bool, scopes []string) (key, userID, vaultID string) {
	e.t.Helper()
	err := e.DB.WithTx(context.Background(), func(tx *store.Tx) error {
		u, _, err := tx.People().EnsureUser(email, live, "Asha Rao", e.Sealer)
		if err != nil {
			return err
		}
		userID = u.ID
		if _, key, err = tx.Keys().CreateAPIKey(u, "test", scopes); err != nil {
			return err
		}
		v, err := tx.Vaults().DefaultVault(u.ID)
		vaultID = v.ID
		return err
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return key, userID, vaultID
}

// approveKYC puts a user straight into APPROVED for payment tests.
func (e *env) approveKYC(userID string) {
	e.t.Helper()
	if _, err := e.SQL.Exec("UPDATE kyc SET status = 'APPROVED' WHERE user_id = ?", userID); err != nil {
		e.t.Fatal(err)
	}
}

type resp struct {
	Status int
	Header http.Header
	Body   []byte
}

// JSON decodes the body into a generic value.
func (r resp) JSON(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v: %s", err, r.Body)
	}
	return m
}

// errCode is the error.code of an error body.
func (r resp) errCode(t *testing.T) string {
	t.Helper()
	m := r.JSON(t)
	e, _ := m["error"].(map[string]any)
	if e == nil {
		t.Fatalf("no error object in %s", r.Body)
	}
	if id, _ := m["requestId"].(string); !strings.HasPrefix(id, "req_") && id == "" {
		t.Fatalf("error body without requestId: %s", r.Body)
	}
	code, _ := e["code"].(string)
	return code
}

// field is error.fields[name].
func (r resp) field(t *testing.T, name string) string {
	t.Helper()
	e, _ := r.JSON(t)["error"].(map[string]any)
	f, _ := e["fields"].(map[string]any)
	s, _ := f[name].(string)
	return s
}

// req sends a request with the default key; headers come in name, value pairs.
func (e *env) req(method, path string, body any, headers ...string) resp {
	return e.reqAs(e.Key, method, path, body, headers...)
}

func (e *env) reqAs(key, method, path string, body any, headers ...string) resp {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	r, err := http.NewRequest(method, e.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if key != "" {
		r.Header.Set("Authorization", "Bearer "+key)
	}
	if body != nil {
		r.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		r.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp{Status: res.StatusCode, Header: res.Header, Body: b}
}

// initiate starts a payout of amount USD and returns its id.
func (e *env) initiate(amount string, extra map[string]any) string {
	e.t.Helper()
	body := withRemitter(map[string]any{"amount": json.Number(amount), "currency": "USD", "destinationAddress": testAddress}, extra)
	r := e.req("POST", "/api/v1/payments/initiate", body)
	if r.Status != http.StatusCreated {
		e.t.Fatalf("initiate %s: %d %s", amount, r.Status, r.Body)
	}
	return r.JSON(e.t)["id"].(string)
}

// withRemitter adds extra to body and, for a client abroad named nowhere
// in it, the client's name a cross-border payout needs.
func withRemitter(body, extra map[string]any) map[string]any {
	for k, v := range extra {
		body[k] = v
	}
	if c, _ := body["counterpartyCountry"].(string); c != "" && c != "IN" && body["counterpartyName"] == nil {
		body["counterpartyName"] = "Acme Inc"
	}
	return body
}

// confirm confirms an initiated USD payout against the default vault.
func (e *env) confirm(id, amount string) resp {
	e.t.Helper()
	return e.req("POST", "/api/v1/payments/confirm", map[string]any{
		"id": id, "destinationAddress": testAddress, "amount": amount, "currency": "USD", "vaultId": e.VaultID,
	})
}

// pay initiates and confirms a payout and returns its id.
func (e *env) pay(amount string, extra map[string]any) string {
	e.t.Helper()
	id := e.initiate(amount, extra)
	if r := e.confirm(id, amount); r.Status != http.StatusCreated {
		e.t.Fatalf("confirm %s: %d %s", id, r.Status, r.Body)
	}
	return id
}

// waitStatus polls the payment until it reaches want, failing after the deadline.
func (e *env) waitStatus(id, want string, within time.Duration) store.Payment {
	e.t.Helper()
	var p store.Payment
	wait.For(e.t, within, func() (err error) {
		if p, err = e.DB.Payments().FindPayment(context.Background(), e.UserID, id); err != nil {
			e.t.Fatal(err)
		}
		if p.Status != want {
			return fmt.Errorf("payment %s is %s, want %s (failedReason %q)", id, p.Status, want, p.FailedReason)
		}
		return nil
	})
	return p
}

// vault reads the default vault.
func (e *env) vault() store.Vault {
	e.t.Helper()
	v, err := e.DB.Vaults().FindVault(context.Background(), e.UserID, e.VaultID)
	if err != nil {
		e.t.Fatal(err)
	}
	return v
}

func readAll(t *testing.T, res *http.Response) []byte {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
