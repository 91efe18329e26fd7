package server_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/openapi"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/server"
	"github.com/payoutd/payoutd/store"
)

// TestContract drives every operation of openapi/openapi.json against a real
// payoutd (SQLite, River, HTTP on loopback, the hosted KYC page) with
// requests built from the operation's examples, path parameters filled from
// objects it creates, plus the error cases: each documented status of each
// operation is produced at least once (500 excepted: nothing documented may
// cause it) and every response is checked against the document. An
// operation or documented status the test does not reach fails it.
func TestContract(t *testing.T) {
	t.Parallel()
	c := loadContract(t)
	w := newWebhookEnv(t, whConfig{schedule: fastSchedule(2, 20*time.Millisecond), timeout: 2 * time.Second})
	e := w.env
	e.URL = contractServer(t, e)
	e.approveKYC(e.UserID)
	q := &requester{c: c, base: e.URL, key: e.Key, client: browserClient(t, false)}
	f := &fixtures{e: e, q: q, paths: map[string]map[string]string{}}
	f.good, f.bad = newHookSink(http.StatusOK), newHookSink(http.StatusServiceUnavailable)
	t.Cleanup(f.good.Close)
	t.Cleanup(f.bad.Close)

	steps := []struct {
		name string
		fn   func(t *testing.T, f *fixtures)
	}{
		{"Public", flowPublic},
		{"Webhooks", flowWebhooks},
		{"Payments", flowPayments},
		{"Outcomes", flowOutcomes},
		{"Ledger", flowLedger},
		{"TaxCompliance", flowTaxCompliance},
		{"TaxPayments", flowTaxPayments},
		{"LUTs", flowLUTs},
		{"Profile", flowProfile},
		{"Clients", flowClients},
		{"Invoices", flowInvoices},
		{"KYCAndHostedPage", flowKYC},
		{"Wallets", flowWallets},
		{"Sandbox", flowSandboxOnly},
		// Before Events: its live user's vault is quarantined and released.
		{"LiveRail", func(t *testing.T, f *fixtures) { flowLiveRail(t, c, f) }},
		{"Events", flowEvents},
		{"WebhookManagement", flowWebhookManagement},
		{"Sweeps", func(t *testing.T, f *fixtures) { sweeps(t, f) }},
		{"AcceptsWhatItSays", flowStrict},
		{"RateLimited", func(t *testing.T, f *fixtures) { rateLimitSweep(t, c) }},
		{"Unready", func(t *testing.T, f *fixtures) { flowUnready(t, c) }},
		{"WebhookPayloads", flowWebhookPayloads},
	}
	for _, s := range steps {
		if !t.Run(s.name, func(t *testing.T) { s.fn(t, f) }) {
			t.Fatalf("step %s failed; later steps depend on it", s.name)
		}
	}
	t.Run("Coverage", func(t *testing.T) { checkCoverage(t, c) })
}

// contractServer is a second payoutd on the env's database with the hosted
// KYC page (static files) and rate limits high enough for the many requests
// of one user (and the failed authentications of one address) here;
// RateLimited checks the limits themselves.
func contractServer(t *testing.T, e *env) string {
	t.Helper()
	limits := map[string]int{}
	for _, r := range registeredRoutes(t) {
		limits[r.LimitName] = 1 << 20
	}
	limits["auth-failures"] = 1 << 20 // the sweeps send every operation bad credentials
	hs := httptest.NewUnstartedServer(nil)
	base := "http://" + hs.Listener.Addr().String()
	srv, err := server.New(context.Background(), e.DB, server.Config{
		BaseURL: base, Sealer: e.Sealer, Rates: rates.Default(), Limits: limits,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	hs.Config.Handler = srv
	hs.Start()
	t.Cleanup(hs.Close)
	e.Server = srv
	return hs.URL
}

// fixtures are the real objects the steps create and share.
type fixtures struct {
	e         *env
	q         *requester
	good, bad *hookSink
	secret    string // the good endpoint's signing secret

	payID, txnID, firaID, accountID  string
	pendingRecon, eventID, webhookID string
	failingHook                      string
	kycUser                          string // a sandbox user whose KYC walks through the page
	liveKey                          string // the live user of LiveRail, whose vault was quarantined
	paths                            map[string]map[string]string
}

// browserClient keeps cookies when jar is set and never follows redirects,
// so every step's own status is seen.
func browserClient(t *testing.T, jar bool) *http.Client {
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }, Timeout: 30 * time.Second}
	if jar {
		j, err := cookiejar.New(nil)
		if err != nil {
			t.Fatal(err)
		}
		c.Jar = j
	}
	return c
}

// hookSink is a webhook target that answers every delivery with status and
// keeps what it got.
type hookSink struct {
	*httptest.Server
	mu  sync.Mutex
	got []delivered
}

type delivered struct {
	header http.Header
	body   []byte
}

func newHookSink(status int) *hookSink {
	r := &hookSink{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got = append(r.got, delivered{header: req.Header.Clone(), body: b})
		r.mu.Unlock()
		w.WriteHeader(status)
	}))
	return r
}

func (r *hookSink) deliveries() []delivered {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]delivered(nil), r.got...)
}

func newKey() string { return uuid.NewString() }

// userWithoutProfile makes a sandbox user whose profile setup was never
// completed (no name), with an all-scopes key.
func userWithoutProfile(t *testing.T, e *env, email string) string {
	t.Helper()
	var key string
	err := e.DB.WithTx(context.Background(), func(tx *store.Tx) error {
		u, _, err := tx.People().EnsureUser(email, false, "", e.Sealer)
		if err != nil {
			return err
		}
		_, key, err = tx.Keys().CreateAPIKey(u, "contract", store.AllScopes)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func flowPublic(t *testing.T, f *fixtures) {
	q := f.q
	for _, id := range []string{"getHealthz", "getReadyz", "getJwks", "getApiReference"} {
		q.do(t, call{op: id, key: noAuth, want: 200})
	}
	doc := q.do(t, call{op: "getOpenAPIDocument", key: noAuth, want: 200})
	if !bytes.Equal(doc.Body, openapi.Document()) {
		t.Fatal("GET /api/v1/openapi.json differs from the embedded openapi/openapi.json")
	}
	q.do(t, call{op: "getOpenAPIDocument", key: noAuth, headers: []string{"If-None-Match", doc.Header.Get("ETag")}, want: 304})

	tok := q.do(t, call{op: "createSessionToken", want: 200}).value(t)
	session := asStr(tok["access_token"])
	form := "grant_type=client_credentials&client_secret=" + url.QueryEscape(f.e.Key)
	q.do(t, call{op: "createSessionToken", key: noAuth, raw: []byte(form), ctype: "application/x-www-form-urlencoded", want: 200})
	q.do(t, call{op: "createSessionToken", patch: map[string]any{"grant_type": "password"}, want: 400})
	q.do(t, call{op: "createSessionToken", patch: map[string]any{"scope": "tax:write"}, key: sessionlessKey(t, f.e, "payments:read"), want: 400})
	q.do(t, call{op: "createSessionToken", key: noAuth, want: 401})
	q.do(t, call{op: "createSessionToken", raw: []byte("grant_type=" + strings.Repeat("a", 70<<10)), ctype: "application/x-www-form-urlencoded", want: 413})
	q.do(t, call{op: "createSessionToken", raw: []byte(`{"grant_type":"client_credentials"}`), ctype: "application/json", want: 415})

	// The session token (payments:read ledger:read) works as a bearer and
	// carries only its scopes.
	q.do(t, call{op: "listPayments", key: session, noQuery: true, want: 200})
	q.do(t, call{op: "resolveReconciliation", key: session, want: 403})
}

// sessionlessKey is a fresh key of the default user with the given scopes.
func sessionlessKey(t *testing.T, e *env, scopes ...string) string {
	t.Helper()
	key, _, _ := e.newUser("freelancer@example.com", false, scopes)
	return key
}

func flowWebhooks(t *testing.T, f *fixtures) {
	q := f.q
	ep := q.do(t, call{op: "createWebhook", patch: map[string]any{"url": f.good.URL + "/hooks", "eventTypes": []any{}}, want: 201}).value(t)
	f.webhookID, f.secret = asStr(ep["id"]), asStr(ep["secret"])
	bad := q.do(t, call{op: "createWebhook", patch: map[string]any{"url": f.bad.URL + "/hooks", "eventTypes": []any{"payout.settled"}}, want: 201}).value(t)
	f.failingHook = asStr(bad["id"])
	f.paths["webhook"] = map[string]string{"id": f.webhookID}
}

func flowPayments(t *testing.T, f *fixtures) {
	q, e := f.q, f.e
	key := newKey()
	p := q.do(t, call{op: "initiatePayment", headers: []string{"Idempotency-Key", key}, want: 201}).value(t)
	f.payID, f.txnID = asStr(p["id"]), asStr(p["txnId"])
	replay := q.do(t, call{op: "initiatePayment", headers: []string{"Idempotency-Key", key}, want: 201})
	if replay.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("replay without Idempotent-Replayed: %v", replay.Header)
	}
	// The same Idempotency-Key through another key of the same user: the
	// txnId exists already.
	other := sessionlessKey(t, e, store.AllScopes...)
	q.do(t, call{op: "initiatePayment", key: other, headers: []string{"Idempotency-Key", key}, want: 409})
	q.do(t, call{op: "confirmPayment", patch: map[string]any{"id": f.payID, "amount": "1.00"}, want: 400})
	q.do(t, call{op: "confirmPayment", patch: map[string]any{"id": f.payID, "vaultId": "vlt_0000000000000000000000000"}, want: 404})
	q.do(t, call{op: "confirmPayment", patch: map[string]any{"id": f.payID, "vaultId": e.VaultID}, headers: []string{"Idempotency-Key", newKey()}, want: 201})
	q.do(t, call{op: "confirmPayment", patch: map[string]any{"id": f.payID, "vaultId": e.VaultID}, want: 409})
	e.waitStatus(f.payID, store.StatusCompleted, 20*time.Second)

	// Quick-start, and a currency no vault of the user holds.
	qs := newKey()
	q.do(t, call{op: "quickStartPayment", headers: []string{"Idempotency-Key", qs}, want: 201})
	q.do(t, call{op: "quickStartPayment", key: other, headers: []string{"Idempotency-Key", qs}, want: 409})
	q.do(t, call{op: "quickStartPayment", patch: map[string]any{"currency": "EUR"}, want: 400})

	q.do(t, call{op: "listPayments", want: 200})
	q.do(t, call{op: "listPayments", noQuery: true, want: 200})
	q.do(t, call{op: "listPayouts", want: 200})
	q.do(t, call{op: "getPayout", path: map[string]string{"id": f.payID}, want: 200})
	q.do(t, call{op: "getPaymentStatus", path: map[string]string{"txnId": f.txnID}, want: 200})
	if r := q.do(t, call{op: "getPaymentStatus", path: map[string]string{"txnId": newKey()}, want: 200}); strings.TrimSpace(string(r.Body)) != "null" {
		t.Fatalf("status of an unknown txnId: %s, want null", r.Body)
	}
	q.do(t, call{op: "getForm15CA", path: map[string]string{"id": f.payID}, want: 200})
	q.do(t, call{op: "getProvidersHealth", want: 200})
	f.paths["payment"] = map[string]string{"id": f.payID}

	// Cancel: an INITIATED payout ends FAILED (CANCELLED), again and again;
	// a completed one cannot be.
	cancel := asStr(q.do(t, call{op: "initiatePayment", headers: []string{"Idempotency-Key", newKey()}, want: 201}).value(t)["id"])
	q.do(t, call{op: "cancelPayment", path: map[string]string{"id": cancel}, headers: []string{"Idempotency-Key", newKey()}, want: 200})
	q.do(t, call{op: "cancelPayment", path: map[string]string{"id": cancel}, want: 200})
	q.do(t, call{op: "cancelPayment", path: map[string]string{"id": f.payID}, want: 409})

	// KYC is required for a cross-border payout.
	pendingKey, _, _ := e.newUser("pending-kyc@example.com", false, store.AllScopes)
	q.do(t, call{op: "initiatePayment", key: pendingKey, want: 403})
}

// flowOutcomes walks the sandbox outcomes that make the retry, review and
// resolve operations (and their refusals) reachable.
func flowOutcomes(t *testing.T, f *fixtures) {
	q, e := f.q, f.e
	failed := e.pay("100.13", nil)
	pending := e.pay("100.42", nil)
	review := e.pay("100.66", nil)
	unknown := e.pay("100.99", nil)
	f.pendingRecon = e.pay("120.00", nil)
	e.waitStatus(failed, store.StatusFailed, 20*time.Second)
	q.do(t, call{op: "retryPayment", path: map[string]string{"id": failed}, headers: []string{"Idempotency-Key", newKey()}, want: 200})
	q.do(t, call{op: "retryPayment", path: map[string]string{"id": failed}, want: 409})
	e.waitStatus(pending, store.StatusPending, 20*time.Second)
	// Flagged as a given-up job flags it (payout.needs_attention), until
	// the retry sets it going.
	err := e.DB.WithTx(context.Background(), func(tx *store.Tx) error {
		_, err := tx.Payments().FlagPayment(pending, store.StatusPending, "JOB_FAILED: the contract test stopped it")
		return err
	}, store.WithActor("test", ""))
	if err != nil {
		t.Fatal(err)
	}
	q.do(t, call{op: "retryPayment", path: map[string]string{"id": pending}, want: 200})
	e.waitStatus(review, store.StatusManualReview, 20*time.Second)
	q.do(t, call{op: "sandboxReviewPayment", path: map[string]string{"id": review}, want: 200})
	q.do(t, call{op: "sandboxReviewPayment", path: map[string]string{"id": review}, want: 409})
	for _, id := range []string{failed, pending, review, unknown, f.pendingRecon} {
		e.waitStatus(id, store.StatusCompleted, 20*time.Second)
	}
}

func flowLedger(t *testing.T, f *fixtures) {
	q := f.q
	accts := q.do(t, call{op: "listLedgerAccounts", want: 200}).value(t)
	for _, a := range asArr(accts["items"]) {
		if asStr(asMap(a)["kind"]) == "settlement" {
			f.accountID = asStr(asMap(a)["id"])
		}
	}
	if f.accountID == "" {
		t.Fatalf("no settlement account in %v", accts)
	}
	acct := map[string]string{"accountId": f.accountID}
	q.do(t, call{op: "getLedgerBalance", path: acct, want: 200})
	q.do(t, call{op: "listLedgerEntries", path: acct, want: 200})
	q.do(t, call{op: "listLedgerEntries", path: acct, noQuery: true, want: 200})
	for _, id := range []string{f.payID, f.pendingRecon} {
		q.do(t, call{op: "getReconciliation", path: map[string]string{"paymentId": id}, want: 200})
	}
	pid := map[string]string{"paymentId": f.pendingRecon}
	q.do(t, call{op: "resolveReconciliation", path: pid, want: 200})
	q.do(t, call{op: "resolveReconciliation", path: pid, noBody: true, want: 409})
	q.do(t, call{op: "getSequestration", want: 200})
	q.do(t, call{op: "setSequestrationPolicy", want: 200})
	f.paths["ledger"] = acct
}

func flowTaxCompliance(t *testing.T, f *fixtures) {
	q := f.q
	list := q.do(t, call{op: "listFiras", query: map[string]string{"paymentId": f.payID, "from": "", "to": ""}, want: 200}).value(t)
	items := asArr(list["items"])
	if len(items) != 1 {
		t.Fatalf("FIRAs of %s: %v", f.payID, list)
	}
	f.firaID = asStr(asMap(items[0])["id"])
	q.do(t, call{op: "listFiras", query: map[string]string{"paymentId": f.payID}, want: 200})
	q.do(t, call{op: "getFira", path: map[string]string{"firaId": f.firaID}, want: 200})
	q.do(t, call{op: "getFiraPdf", path: map[string]string{"firaId": f.firaID}, want: 200})
	for _, id := range []string{"getGstSummary", "getItr4Prefill", "exportItr4Prefill", "exportItr4", "getTaxLiability", "exportGst3b", "verifyAudit"} {
		q.do(t, call{op: id, want: 200})
	}
	taxOnly := sessionlessKey(t, f.e, "tax:read")
	q.do(t, call{op: "exportItr4Prefill", key: taxOnly, want: 200})
	big := userAboveITR4Limit(t, f.e)
	for _, id := range []string{"getItr4Prefill", "exportItr4Prefill", "exportItr4"} {
		q.do(t, call{op: id, key: big, noQuery: true, want: 409})
	}
	q.do(t, call{op: "listAudit", query: map[string]string{"resourceId": f.pendingRecon}, want: 200})
	q.do(t, call{op: "listAudit", noQuery: true, want: 200})
}

// userAboveITR4Limit makes a user whose current year holds one settled
// receipt of 90,100 USD (₹75,00,825 at ₹83.25), above the s.44ADA limit, and
// returns an all-scopes key.
func userAboveITR4Limit(t *testing.T, e *env) string {
	t.Helper()
	key, userID, vaultID := e.newUser("above-limit@example.com", false, store.AllScopes)
	body := map[string]any{"amount": "90100.00", "currency": "USD", "destinationAddress": testAddress, "invoiceRef": "INV-BIG"}
	r := e.reqAs(key, "POST", "/api/v1/payments/initiate", body)
	if r.Status != http.StatusCreated {
		t.Fatalf("initiate: %d %s", r.Status, r.Body)
	}
	id := r.JSON(t)["id"].(string)
	delete(body, "invoiceRef")
	body["id"], body["vaultId"] = id, vaultID
	if r := e.reqAs(key, "POST", "/api/v1/payments/confirm", body); r.Status != http.StatusCreated {
		t.Fatalf("confirm: %d %s", r.Status, r.Body)
	}
	wait.For(t, 20*time.Second, func() error {
		p, err := e.DB.Payments().FindPayment(context.Background(), userID, id)
		if err != nil {
			t.Fatal(err)
		}
		if p.Status != store.StatusCompleted {
			return fmt.Errorf("payment %s is %s", id, p.Status)
		}
		return nil
	})
	return key
}

func flowProfile(t *testing.T, f *fixtures) {
	q := f.q
	q.do(t, call{op: "getProfile", want: 200})
	q.do(t, call{op: "getProfile", key: userWithoutProfile(t, f.e, "no-profile@example.com"), want: 404})
	q.do(t, call{op: "getFullProfile", want: 200})
	q.do(t, call{op: "updateProfile", want: 200})
	q.do(t, call{op: "getLinkedWallet", want: 404})
	q.do(t, call{op: "linkWallet", want: 200})
	q.do(t, call{op: "getLinkedWallet", want: 200})
}

// isStorageFull reports the shared storage-full 503 of every write.
func isStorageFull(resp any) bool {
	return asStr(asMap(resp)["$ref"]) == "#/components/responses/StorageFull"
}

// checkCoverage fails for every operation, or documented status of one, that
// no request reached. 500 is exempt: no documented input may cause it. So
// is the storage-full 503: it takes a full disk, which TestStorageFull
// makes for real; 431, which every operation answers alike before
// routing (TestRequestEdges); and the hosted KYC page's 429, the limit on
// failed authentications (TestTokenPagesCountTowardAuthLimit).
func checkCoverage(t *testing.T, c *contract) {
	var missing, lines []string
	ids := make([]string, 0, len(c.ops))
	for id := range c.ops {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	total, covered := 0, 0
	for _, id := range ids {
		op := c.ops[id]
		var got []string
		for _, status := range sortedKeys(op.responses()) {
			if status == "500" || status == "431" || status == "429" && strings.HasPrefix(op.Path, "/verify/") || isStorageFull(op.responses()[status]) {
				continue
			}
			total++
			if c.hits[id][status] > 0 {
				covered++
				got = append(got, status)
			} else {
				missing = append(missing, id+" "+status)
			}
		}
		lines = append(lines, id+": "+strings.Join(got, " "))
	}
	t.Logf("operations exercised: %d of %d; documented statuses (500 excepted) produced: %d of %d\n%s",
		countHit(c), len(c.ops), covered, total, strings.Join(lines, "\n"))
	if len(missing) > 0 {
		t.Fatalf("documented but never produced:\n  %s", strings.Join(missing, "\n  "))
	}
}

func countHit(c *contract) int {
	n := 0
	for id := range c.ops {
		if len(c.hits[id]) > 0 {
			n++
		}
	}
	return n
}
