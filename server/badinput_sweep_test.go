package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/matryer/is"
	"github.com/riverqueue/river"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/jobs"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/store/storetest"
)

// TestBadInputSweep sends hostile input to every authenticated route and
// holds each answer to the project rule: bad input gets a clear 4xx with the
// documented error body, never a 5xx, a panic or a (half-)written record.
// Each route gets every case of what is its own (fields, parameters,
// ownership, scopes, idempotent replay) and a representative case of each
// rule every route shares; the first route of each kind gets every
// variant of those (sweepFull).
//
// Every request is checked on its own: status below 500 and in the set the
// case allows; any 4xx carries exactly {"error":{"code","message","fields?"},
// "requestId"} with a documented code that matches the status and a
// requestId equal to X-Request-Id; no other user's data in the body; and the
// database fingerprint (payments, audit_log, ledger_postings, events, vaults,
// profiles, kyc, webhooks, policies, reconciliations, FIRAs, River jobs) is
// unchanged afterwards. A case marked bug is a known production bug: it is
// skipped while it reproduces and fails once it no longer does, so the
// marker gets removed.
func TestBadInputSweep(t *testing.T) {
	t.Parallel()
	for shard := range sweepShards {
		t.Run(strconv.Itoa(shard), func(t *testing.T) {
			t.Parallel()
			sweepShard(t, shard)
		})
	}
}

// sweepShards is how many parts the routes are dealt into. Each part has a
// server and database of its own, so the parts run side by side and a write
// is still charged to the one case that made it.
const sweepShards = 4

// sweepShard sends the cases of its part of the routes; the first part also
// checks the whole (round trips, coverage), the last the odd paths.
func sweepShard(t *testing.T, shard int) {
	start := time.Now()
	e := newEnv(t)
	fx := sweepSetup(t, e)
	specs := sweepSpecs(t, fx)
	if shard == 0 {
		t.Run("AcceptedTextRoundTrips", func(t *testing.T) { sweepRoundTrip(t, e, fx) })
		t.Run("EveryRouteCovered", func(t *testing.T) { sweepCoverage(t, specs) })
	}

	// Each route goes to the part with the fewest cases so far: every part
	// deals the same routes the same way, so each route is swept once.
	var dealt [sweepShards]int
	n, routes := 0, 0
	for _, sp := range specs {
		cases := sweepCases(sp, specs, fx)
		to := 0
		for i := range dealt {
			if dealt[i] < dealt[to] {
				to = i
			}
		}
		dealt[to] += len(cases)
		if to != shard {
			continue
		}
		n += len(cases)
		routes++
		t.Run(sp.name(), func(t *testing.T) {
			fx.fp = nil
			seen := map[int]int{}
			for _, c := range cases {
				t.Run(c.name, func(t *testing.T) { sweepRun(t, e, fx, c, seen) })
			}
			t.Logf("%d cases; answers by status: %v", len(cases), seen)
		})
	}
	if shard == sweepShards-1 {
		misc := sweepMiscPaths(fx)
		n += len(misc)
		t.Run("Paths", func(t *testing.T) {
			fx.fp = nil
			for _, c := range misc {
				t.Run(c.name, func(t *testing.T) { sweepRun(t, e, fx, c, nil) })
			}
		})
	}
	t.Logf("%d hostile cases over %d of %d routes; %s in all", n, routes, len(specs), time.Since(start).Round(time.Millisecond))
}

// ---------------------------------------------------------------------------
// Fixtures

// sweepFixtures are the ids the sweep aims at: the caller's own resources (so
// a refusal is about the input, not ownership) and another user's (which must
// stay invisible: 404, or null for the txnId status lookup).
type sweepFixtures struct {
	key, noKYCKey, noScopeKey, liveKey, otherKey string
	otherUID, otherEmail                         string

	firaPay, firaTxn, firaID string // own cross-border payout: COMPLETED, RECONCILED, with a FIRA
	pendingPay               string // own domestic payout: COMPLETED, PENDING_RECONCILIATION
	initiated                string // own payout still INITIATED
	brlPay                   string // own INITIATED payout in a currency without an INR rate (from before initiate required one)
	eurPay                   string // own INITIATED EUR payout (the default vault holds USD)
	settle, vault, webhook   string
	event                    string

	otherPay, otherTxn, otherFIRA, otherSettle, otherVault, otherWebhook, otherEvent string

	taxPay, reversedTaxPay, otherTaxPay string // tax payments (tax_payments_sweep_test.go)
	lut, withdrawnLUT, otherLUT         string // LUTs (tax_luts_sweep_test.go)
	invoice, otherInvoice               string // invoices (invoices_sweep_test.go)
	deposit, otherDeposit               string // sandbox deposits

	text    map[string]string // hostile but valid free text stored on firaPay
	badAddr string            // a 56-character address with a wrong checksum

	// fp is the database's fingerprint after the last case, which is the
	// next case's before: nothing else writes between two cases (a write
	// that did would show as the next case's, a false alarm, never a
	// miss). Each group of cases starts without one.
	fp []string
}

func sweepSetup(t *testing.T, e *env) *sweepFixtures {
	t.Helper()
	fx := &sweepFixtures{key: e.Key, vault: e.VaultID, otherEmail: "sweep-other@example.com", badAddr: testAddress[:55] + "A"}
	var noKYC, noScope, live string
	fx.otherKey, fx.otherUID, fx.otherVault = e.newUser(fx.otherEmail, false, store.AllScopes)
	fx.noKYCKey, noKYC, _ = e.newUser("sweep-nokyc@example.com", false, store.AllScopes)
	fx.noScopeKey, noScope, _ = e.newUser("sweep-noscope@example.com", false, []string{})
	fx.liveKey, live, _ = e.newUser("sweep-live@example.com", true, store.AllScopes)
	// The sweep sends hundreds of requests per route; rate limits would
	// answer 429 before the input is even looked at.
	for _, uid := range []string{e.UserID, fx.otherUID, noKYC, noScope, live} {
		sweepRateExempt(t, e, uid)
	}
	e.approveKYC(e.UserID)
	e.approveKYC(fx.otherUID)

	// Free text the API accepts must come back exactly as sent, and must not
	// break anything that renders it later (FIRA PDF, Form 15CA, exports).
	// Controls and bidi overrides are refused (TestFreeTextRefusesControlsAndBidi).
	fx.text = map[string]string{
		"memo":             "memo '; DROP TABLE payments; -- 😀 <b>%s</b> \u200f",
		"invoiceRef":       "INV'\"%_😀/../\\",
		"counterpartyName": "Zoë O'Brien 漢字 \u200b\ufeff",
		"counterpartyBank": strings.Repeat("🏦", 256),
	}
	extra := map[string]any{"counterpartyCountry": "US", "purposeCode": "P0802"}
	for k, v := range fx.text {
		extra[k] = v
	}
	fx.firaPay = e.pay("10.00", extra)
	fx.pendingPay = e.pay("11.00", nil)
	fx.initiated = e.initiate("12.00", nil)
	r := e.req("POST", "/api/v1/payments/initiate", map[string]any{"amount": json.Number("5.00"), "currency": "EUR", "destinationAddress": testAddress})
	if r.Status != http.StatusCreated {
		t.Fatalf("initiate EUR: %d %s", r.Status, r.Body)
	}
	fx.eurPay = r.JSON(t)["id"].(string)
	if err := e.DB.WithTx(context.Background(), func(tx *store.Tx) error {
		p, err := tx.Payments().CreatePayment(store.Payment{UserID: e.UserID, TxnID: store.NewID("txn"), Amount: 500, Currency: "BRL", DestinationAddress: testAddress})
		fx.brlPay = p.ID
		return err
	}); err != nil {
		t.Fatal(err)
	}

	r = e.reqAs(fx.otherKey, "POST", "/api/v1/payments/initiate", map[string]any{"amount": json.Number("20.00"), "currency": "USD",
		"destinationAddress": testAddress, "counterpartyCountry": "GB", "counterpartyName": "Acme Ltd"})
	if r.Status != http.StatusCreated {
		t.Fatalf("other initiate: %d %s", r.Status, r.Body)
	}
	fx.otherPay, fx.otherTxn = r.JSON(t)["id"].(string), r.JSON(t)["txnId"].(string)
	r = e.reqAs(fx.otherKey, "POST", "/api/v1/payments/confirm", map[string]any{"id": fx.otherPay, "destinationAddress": testAddress,
		"amount": "20.00", "currency": "USD", "vaultId": fx.otherVault})
	if r.Status != http.StatusCreated {
		t.Fatalf("other confirm: %d %s", r.Status, r.Body)
	}
	fx.firaTxn = e.waitStatus(fx.firaPay, store.StatusCompleted, 10*time.Second).TxnID
	e.waitStatus(fx.pendingPay, store.StatusCompleted, 10*time.Second)
	e.quiesce()
	if st := sweepGet(t, e, fx.otherKey, "/api/v1/payments/payouts/"+fx.otherPay)["status"]; st != store.StatusCompleted {
		t.Fatalf("other payout is %v, want COMPLETED", st)
	}
	for _, c := range []struct{ key, id, want string }{
		{fx.key, fx.firaPay, store.Reconciled}, {fx.key, fx.pendingPay, store.PendingReconciliation},
		{fx.otherKey, fx.otherPay, store.PendingReconciliation},
	} {
		if st := sweepGet(t, e, c.key, "/api/v1/ledger/reconciliation/"+c.id)["status"]; st != c.want {
			t.Fatalf("reconciliation of %s is %v, want %s", c.id, st, c.want)
		}
	}
	fx.firaID = sweepFirst(t, sweepGet(t, e, fx.key, "/api/v1/compliance/fira?paymentId="+fx.firaPay), "items")
	fx.otherFIRA = sweepFirst(t, sweepGet(t, e, fx.otherKey, "/api/v1/compliance/fira?paymentId="+fx.otherPay), "items")
	fx.event = sweepFirst(t, sweepGet(t, e, fx.key, "/api/v1/events?limit=1"), "items")
	fx.otherEvent = sweepFirst(t, sweepGet(t, e, fx.otherKey, "/api/v1/events?limit=1"), "items")
	fx.settle = e.settleAccount()
	for _, it := range sweepGet(t, e, fx.otherKey, "/api/v1/ledger/accounts")["items"].([]any) {
		if a := it.(map[string]any); a["kind"] == "settlement" {
			fx.otherSettle = a["id"].(string)
		}
	}
	sweepTaxPaymentSetup(t, e, fx)
	sweepLUTSetup(t, e, fx)
	sweepInvoiceSetup(t, e, fx)
	dep := map[string]any{"amount": "1.00", "from": "Sweep Co", "memo": "INV-1"}
	fx.deposit = sweepID(t, e.reqAs(fx.key, "POST", "/api/v1/sandbox/vaults/"+fx.vault+"/deposits", dep), http.StatusCreated)
	fx.otherDeposit = sweepID(t, e.reqAs(fx.otherKey, "POST", "/api/v1/sandbox/vaults/"+fx.otherVault+"/deposits", dep), http.StatusCreated)
	// Webhooks last, once every event exists, so no delivery runs (or fails
	// and disables the endpoint) while the sweep counts rows.
	hook := map[string]any{"url": "http://127.0.0.1:9/sweep", "eventTypes": []string{"kyc.updated"}}
	fx.webhook = sweepID(t, e.reqAs(fx.key, "POST", "/api/v1/webhooks", hook), http.StatusCreated)
	fx.otherWebhook = sweepID(t, e.reqAs(fx.otherKey, "POST", "/api/v1/webhooks", hook), http.StatusCreated)
	e.quiesce()
	return fx
}

func sweepRateExempt(t *testing.T, e *env, userID string) {
	t.Helper()
	ctx := context.Background()
	keys, err := e.DB.Keys().ListAPIKeys(ctx, userID)
	if err != nil {
		t.Fatal(err)
	}
	err = e.DB.WithTx(ctx, func(tx *store.Tx) error {
		for _, k := range keys {
			if err := tx.Keys().SetRateExempt(k.ID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func sweepGet(t *testing.T, e *env, key, p string) map[string]any {
	t.Helper()
	r := e.reqAs(key, "GET", p, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("GET %s: %d %s", p, r.Status, r.Body)
	}
	return r.JSON(t)
}

func sweepFirst(t *testing.T, m map[string]any, list string) string {
	t.Helper()
	items, _ := m[list].([]any)
	if len(items) == 0 {
		t.Fatalf("no %s in %v", list, m)
	}
	return items[0].(map[string]any)["id"].(string)
}

func sweepID(t *testing.T, r resp, want int) string {
	t.Helper()
	if r.Status != want {
		t.Fatalf("status %d, want %d: %s", r.Status, want, r.Body)
	}
	return r.JSON(t)["id"].(string)
}

// sweepRoundTrip: hostile text that is valid input is stored whole and
// served back byte for byte by every view of it.
func sweepRoundTrip(t *testing.T, e *env, fx *sweepFixtures) {
	// get runs on a copy of the env bound to the subtest, so a failure
	// inside the harness stops that subtest only.
	get := func(t *testing.T, p string) resp {
		t.Helper()
		se := *e
		se.t = t
		r := se.req("GET", p, nil)
		if r.Status != http.StatusOK {
			t.Fatalf("GET %s: %d %s", p, r.Status, sweepClip(r.Body))
		}
		return r
	}
	t.Run("Payment", func(t *testing.T) {
		is := is.New(t)
		p := get(t, "/api/v1/payments/payouts/"+fx.firaPay).JSON(t)
		for k, v := range fx.text {
			is.Equal(p[k], v) // stored and served exactly
		}
	})
	t.Run("FIRA", func(t *testing.T) {
		is := is.New(t)
		f := get(t, "/api/v1/compliance/fira/"+fx.firaID).JSON(t)
		is.Equal(f["invoiceRef"], fx.text["invoiceRef"])
		is.Equal(f["remittingBank"], fx.text["counterpartyBank"])
		pdf := get(t, "/api/v1/compliance/fira/"+fx.firaID+"/pdf")
		is.Equal(pdf.Header.Get("Content-Type"), "application/pdf")
		is.True(bytes.HasPrefix(pdf.Body, []byte("%PDF")))
	})
	t.Run("Form15CA", func(t *testing.T) {
		is := is.New(t)
		f := get(t, "/api/v1/payments/"+fx.firaPay+"/form15ca").JSON(t)
		is.Equal(f["beneficiaryName"], fx.text["counterpartyName"])
		is.Equal(f["beneficiaryBank"], fx.text["counterpartyBank"])
		is.Equal(f["invoiceRef"], fx.text["invoiceRef"])
	})
	t.Run("Reconciliation", func(t *testing.T) {
		is := is.New(t)
		is.Equal(get(t, "/api/v1/ledger/reconciliation/"+fx.firaPay).JSON(t)["invoiceRef"], fx.text["invoiceRef"])
	})
	t.Run("ProfileName", func(t *testing.T) {
		is := is.New(t)
		se := *e
		se.t = t
		name := "Zoë O'Brien'); DROP TABLE profiles; -- 😀"
		r := se.req("PATCH", "/api/v1/profile", map[string]any{"name": name})
		is.Equal(r.Status, http.StatusOK)
		is.Equal(get(t, "/api/v1/profile").JSON(t)["profile"].(map[string]any)["name"], name)
		is.Equal(get(t, "/api/v1/profile/full").JSON(t)["profile"].(map[string]any)["display_name"], name)
	})
	t.Run("ReadersOfStoredText", func(t *testing.T) {
		for _, p := range []string{"/api/v1/payments?limit=100", "/api/v1/compliance/audit?limit=100", "/api/v1/events?limit=100",
			"/api/v1/tax/liability", "/api/v1/compliance/gst/summary", "/api/v1/compliance/itr4/prefill",
			"/api/v1/compliance/itr4/prefill/export", "/api/v1/tax/exports/itr4", "/api/v1/compliance/audit/verify",
			"/api/v1/ledger/accounts/" + fx.settle + "/entries?limit=100", "/api/v1/compliance/fira?limit=100"} {
			t.Run(strings.TrimPrefix(p, "/api/v1/"), func(t *testing.T) { get(t, p) })
		}
	})
}

// ---------------------------------------------------------------------------
// Cases

// sweepCase is one hostile request and what it may answer.
type sweepCase struct {
	name    string
	method  string
	path    string // escaped path and query
	body    []byte // nil: no body
	chunked bool   // send the body without a length (Transfer-Encoding: chunked)
	ctype   string // Content-Type: "" = application/json when there is a body, "-" = none
	auth    string // Authorization header value, "-" = none
	headers []string
	want    []int  // acceptable statuses; nil = any 4xx
	code    string // required error code, when it matters
	sub     string // required substring of a 2xx body
	bug     string // known production bug (see the type comment of TestBadInputSweep)
}

// sweepSpec is one registered route: a concrete path on the caller's own
// resources plus what varies.
type sweepSpec struct {
	pattern   string   // as registered in routes*.go
	path      string   // concrete path the generic cases use
	tmpl      string   // path with one {param}; "" = the route has no parameter
	own       string   // value of the parameter in path
	other     string   // another user's id for the parameter
	paramWant []int    // answer to a foreign or hostile parameter (default 404)
	paramSub  string   // required 2xx body for a foreign parameter (the status lookup's null)
	paramBody []byte   // body sent with parameter cases (POST routes)
	auth      string   // default Authorization
	okWant    []int    // answer to the plain request (GET routes)
	query     []string // query parameters to fuzz
	body      *sweepBody
	idem      bool // honours Idempotency-Key
	extra     []sweepCase
	// form is the form body of the generic cases (the token exchange), and
	// noScopeWant what a key without scopes gets (default 403).
	form        []byte
	noScopeWant []int
}

func (sp *sweepSpec) method() string { return strings.Fields(sp.pattern)[0] }

func (sp *sweepSpec) name() string {
	p := strings.TrimPrefix(strings.Fields(sp.pattern)[1], "/api/v1/")
	n := sp.method() + "_" + strings.ReplaceAll(strings.Trim(p, "/"), "/", "_")
	if sp.tmpl != "" && !strings.Contains(sp.pattern, sp.tmpl) {
		n += "(" + strings.ReplaceAll(strings.TrimPrefix(sp.tmpl, "/api/v1/"), "/", "_") + ")"
	}
	return n
}

// sweepBody describes a route's JSON body.
type sweepBody struct {
	base      []sweepKV // a body that is refused (or a no-op): never written
	baseWant  []int
	emptyWant []int // answer to an empty body; nil = 400
	shapeWant []int // answer to a body that is not one valid object; nil = 400
	fields    []string
	guards    map[string][]sweepKV // overrides while fuzzing a field, to keep the request a refusal
}

type sweepKV struct{ k, raw string }

func sweepKVs(pairs ...string) []sweepKV {
	out := make([]sweepKV, 0, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, sweepKV{pairs[i], pairs[i+1]})
	}
	return out
}

// sweepWith returns base with k set to raw (replaced in place, or appended);
// raw "" deletes k.
func sweepWith(base []sweepKV, k, raw string) []sweepKV {
	out := make([]sweepKV, 0, len(base)+1)
	found := false
	for _, f := range base {
		if f.k == k {
			found = true
			if raw == "" {
				continue
			}
			f.raw = raw
		}
		out = append(out, f)
	}
	if !found && raw != "" {
		out = append(out, sweepKV{k, raw})
	}
	return out
}

func sweepObj(fields []sweepKV) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(sweepJS(f.k))
		b.WriteByte(':')
		b.WriteString(f.raw)
	}
	b.WriteByte('}')
	return b.Bytes()
}

func sweepJS(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// sweepStrings are hostile texts for every string field, path and query
// parameter.
var sweepStrings = []struct{ name, v string }{
	{"Empty", ""},
	{"Spaces", "   "},
	{"NUL", "\x00"},
	{"EmbeddedNUL", "ab\x00cd"},
	{"Control", "\x01\x02\x07\x1b[31m\r\n\t\x7f"},
	{"SQLQuote", "' OR '1'='1' --"},
	{"SQLDrop", "x'); DROP TABLE payments; --"},
	{"SQLUnion", `" UNION SELECT hash FROM api_keys --`},
	{"LikeWildcards", "%_%"},
	{"Traversal", "../../../../etc/passwd"},
	{"Unicode", "ünïcødé 漢字 😀"},
	{"Bidi", "\u202e\u200b\ufeffabc\u2028"},
	{"Astral", strings.Repeat("😀", 60)},
	{"HTML", "<script>alert(1)</script>"},
	{"FormatVerbs", "%s%n%x%d%%"},
	{"Long10k", strings.Repeat("A", 10000)},
	{"LongUnicode", strings.Repeat("é", 5000)},
}

// sweepValues are raw JSON values that are the wrong type or out of range.
var sweepValues = []struct{ name, raw string }{
	{"Null", "null"},
	{"True", "true"},
	{"Zero", "0"},
	{"Negative", "-1"},
	{"TooPrecise", "0.001"},
	{"Huge", "1e400"},
	{"BigInt", "99999999999999999999999"},
	{"TinyNegExp", "-1e-400"},
	{"EmptyArray", "[]"},
	{"ArrayOfString", `["a"]`},
	{"EmptyObject", "{}"},
	{"NaNString", `"NaN"`},
	{"InfinityString", `"Infinity"`},
	{"NegZeroString", `"-0"`},
	{"ExpString", `"1e3"`},
	{"HexString", `"0x10"`},
	{"LoneSurrogate", `"\ud800"`},
	{"InvalidUTF8", "\"\xff\xfe\""},
}

// sweepSample names the variants of sweepStrings, sweepValues and
// sweepNumbers every field and parameter gets: one of each rule's class
// (blank, control bytes, SQL, non-ASCII, length in bytes and in runes;
// wrong JSON type, zero, sign, precision, range, a number as text, bad
// UTF-8). The route of its kind that sweepFull picks gets them all.
var sweepSample = map[string]bool{
	"Empty": true, "Spaces": true, "NUL": true, "Control": true, "SQLQuote": true, "Unicode": true, "Long10k": true, "LongUnicode": true,
	"Null": true, "True": true, "Zero": true, "Negative": true, "TooPrecise": true, "Huge": true, "EmptyArray": true,
	"EmptyObject": true, "NaNString": true, "InvalidUTF8": true,
	"Fraction": true, "NaN": true,
}

// sweepFull reports whether sp is the route that carries every variant of
// the rules all routes share (credentials, methods, idempotency keys,
// request ids, content types, body shapes, each hostile text and value):
// the first route of its kind (method, body, form, path parameter, query,
// idempotency). Those rules are enforced by code every route goes
// through, so the other routes get a representative case of each, and
// every case of what is theirs alone: their fields, parameters,
// ownership, scopes and idempotent replay.
func sweepFull(sp *sweepSpec, all []*sweepSpec) bool {
	kind := func(s *sweepSpec) string {
		return fmt.Sprint(s.method(), s.body != nil, s.form != nil, s.tmpl != "", len(s.query) > 0, s.idem)
	}
	for _, o := range all {
		if kind(o) == kind(sp) {
			return o == sp
		}
	}
	return false
}

// sweepNumbers are hostile values for numeric query parameters.
var sweepNumbers = []struct{ name, v string }{
	{"Zero", "0"}, {"Negative", "-1"}, {"Fraction", "1.5"}, {"Exponent", "1e3"}, {"Huge", "1e400"},
	{"BigInt", "99999999999999999999999"}, {"Hex", "0x10"}, {"Plus", "+1"}, {"LeadingSpace", " 1"}, {"NaN", "NaN"},
}

func sweepUnion(sets ...[]int) []int {
	var out []int
	for _, s := range sets {
		for _, v := range s {
			if !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	sort.Ints(out)
	return out
}

func sweepOr400(s []int) []int {
	if s == nil {
		return []int{400}
	}
	return s
}

// sweepCases expands a spec into its cases.
func sweepCases(sp *sweepSpec, all []*sweepSpec, fx *sweepFixtures) []sweepCase {
	var out []sweepCase
	m := sp.method()
	var base []byte
	if sp.body != nil {
		base = sweepObj(sp.body.base)
		if sp.body.base == nil {
			base = nil
		}
	}
	okWant := sp.okWant
	if sp.body != nil {
		okWant = sp.body.baseWant
	}
	add := func(c sweepCase) {
		if c.method == "" {
			c.method = m
		}
		if c.path == "" {
			c.path = sp.path
		}
		if c.auth == "" {
			c.auth = sp.auth
		}
		out = append(out, c)
	}

	genBody, genCT := base, ""
	if sp.form != nil {
		genBody, genCT = sp.form, "application/x-www-form-urlencoded"
	}
	if sp.body != nil {
		add(sweepCase{name: "Base", body: base, want: sp.body.baseWant})
	} else {
		add(sweepCase{name: "Plain", body: genBody, ctype: genCT, want: sp.okWant})
	}
	full := sweepFull(sp, all)

	// Credentials: every route refuses a request without them.
	for i, a := range []struct{ name, v string }{
		{"None", "-"}, {"BearerOnly", "Bearer"}, {"Basic", "Basic dXNlcjpwYXNz"},
		{"SQLKey", "Bearer sk_sandbox_' OR '1'='1"}, {"LongKey", "Bearer sk_live_" + strings.Repeat("A", 10000)},
		{"JWTAlgNone", "Bearer eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiJ1c3JfeCIsImtleV9pZCI6ImtleV94In0."},
		{"GarbageJWT", "Bearer a.b.c"}, {"KeyPlusOne", "Bearer " + fx.key + "x"},
	} {
		if i > 0 && !full {
			break
		}
		add(sweepCase{name: "Auth_" + a.name, auth: a.v, body: genBody, ctype: genCT, want: []int{401}, code: apperr.ErrUnauthorized})
	}
	if sp.noScopeWant == nil {
		add(sweepCase{name: "Auth_NoScopes", auth: "Bearer " + fx.noScopeKey, body: genBody, ctype: genCT, want: []int{403}, code: apperr.ErrInsufficientScope})
	} else {
		add(sweepCase{name: "Auth_NoScopes", auth: "Bearer " + fx.noScopeKey, body: genBody, ctype: genCT, want: sp.noScopeWant})
	}

	// Wrong methods on the same path.
	registered := map[string]bool{}
	pathOf := strings.Fields(sp.pattern)[1]
	for _, o := range all {
		if strings.Fields(o.pattern)[1] == pathOf {
			registered[o.method()] = true
		}
	}
	for _, wm := range []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "get", "PROPFIND"} {
		if registered[wm] || (wm == "HEAD" && registered["GET"]) {
			continue
		}
		add(sweepCase{name: "Method_" + wm, method: wm, want: []int{404, 405}})
		if !full {
			break // one wrong method per path
		}
	}

	// Idempotency-Key.
	if sp.idem {
		for i, k := range []struct{ name, v string }{
			{"NotUUID", "not-a-uuid"}, {"Long", strings.Repeat("a", 10000)}, {"SQL", "' OR 1=1 --"},
			{"Unicode", "ü0000000-0000-4000-8000-000000000000"}, {"Braces", "{00000000-0000-4000-8000-000000000000}"},
		} {
			if i > 0 && !full {
				break
			}
			add(sweepCase{name: "IdemKey_" + k.name, body: base, headers: []string{"Idempotency-Key", k.v}, want: []int{400}, code: apperr.ErrValidation})
		}
		h := fnv.New64a()
		h.Write([]byte(sp.name()))
		key := fmt.Sprintf("5eed5eed-0000-4000-8000-%012x", h.Sum64()&(1<<48-1))
		add(sweepCase{name: "IdemKey_FirstUse", body: base, headers: []string{"Idempotency-Key", key}, want: okWant})
		add(sweepCase{name: "IdemKey_ReusedWithOtherBody", body: []byte(`{"zzz":1}`), headers: []string{"Idempotency-Key", key},
			want: []int{422}, code: apperr.ErrIdempotencyReused})
	}

	// Request ids the server must not adopt (one middleware for every route).
	for _, h := range []struct{ name, v string }{{"HTML", "<script>"}, {"Long", strings.Repeat("r", 65)}, {"Unicode", "réq-ü"}} {
		if !full {
			break
		}
		add(sweepCase{name: "RequestID_" + h.name, body: genBody, ctype: genCT, headers: []string{"X-Request-Id", h.v}, want: okWant})
	}

	if sp.body != nil {
		sweepBodyCases(sp, base, full, add)
	}
	if sp.tmpl != "" {
		sweepParamCases(sp, full, add)
	}
	for _, q := range sp.query {
		for _, s := range sweepStrings {
			if !full && !sweepSample[s.name] {
				continue
			}
			add(sweepCase{name: "Query_" + q + "_" + s.name, path: sp.path + "?" + q + "=" + url.QueryEscape(s.v), want: sweepUnion(okWant, []int{400})})
		}
		for _, s := range sweepNumbers {
			if !full && !sweepSample[s.name] {
				continue
			}
			add(sweepCase{name: "Query_" + q + "_" + s.name, path: sp.path + "?" + q + "=" + url.QueryEscape(s.v), want: sweepUnion(okWant, []int{400})})
		}
		add(sweepCase{name: "Query_" + q + "_RawPercent00", path: sp.path + "?" + q + "=%00", want: sweepUnion(okWant, []int{400})})
		add(sweepCase{name: "Query_" + q + "_Repeated", path: sp.path + "?" + q + "=1&" + q + "=%27", want: sweepUnion(okWant, []int{400})})
	}
	if m == "GET" {
		add(sweepCase{name: "Query_Unknown", path: sp.path + "?zzz=%00&page&=x&%ff=%fe", want: sweepUnion(okWant, []int{400})})
	}
	for _, c := range sp.extra {
		if c.body == nil && c.method == "" && sp.body != nil && sp.body.base != nil {
			c.body = base
		}
		add(c)
	}
	return out
}

// sweepBodyCases are the body's cases; a route that is not full gets one
// refused content type and the body shapes each decoding rule refuses.
func sweepBodyCases(sp *sweepSpec, base []byte, full bool, add func(sweepCase)) {
	b := sp.body
	shape := sweepOr400(b.shapeWant)
	empty := sweepOr400(b.emptyWant)
	baseOr := base
	if baseOr == nil {
		baseOr = []byte("{}")
	}

	// Content types.
	for i, ct := range []struct{ name, v string }{
		{"TextPlain", "text/plain"}, {"Form", "application/x-www-form-urlencoded"}, {"Missing", "-"},
		{"BadParams", "application/json; charset"}, {"JSONPatch", "application/json-patch+json"},
		{"Multipart", "multipart/form-data; boundary=x"}, {"XML", "application/xml"}, {"NoSlash", "json"},
	} {
		if i > 0 && !full {
			break
		}
		add(sweepCase{name: "ContentType_" + ct.name, body: baseOr, ctype: ct.v, want: []int{415}, code: "ERR_UNSUPPORTED_MEDIA_TYPE"})
	}
	for _, ct := range []struct{ name, v string }{{"UpperCase", "APPLICATION/JSON"}, {"Charset", "application/json; charset=utf-8"}} {
		if !full && ct.name != "Charset" {
			continue
		}
		want := b.baseWant
		if base == nil {
			want = sweepUnion(shape, b.baseWant)
		}
		add(sweepCase{name: "ContentType_" + ct.name, body: baseOr, ctype: ct.v, want: want})
	}

	// Sizes and emptiness.
	add(sweepCase{name: "Body_Empty", body: []byte{}, want: empty})
	big := []byte(`{"memo":"` + strings.Repeat("A", 100<<10) + `"}`)
	add(sweepCase{name: "Body_Oversized", body: big, want: []int{413}, code: "ERR_BODY_TOO_LARGE"})
	if full {
		add(sweepCase{name: "Body_Whitespace", body: []byte(" \n\t "), want: sweepUnion(shape, empty)})
		add(sweepCase{name: "Body_OversizedChunked", body: big, chunked: true, want: []int{413}, code: "ERR_BODY_TOO_LARGE"})
		add(sweepCase{name: "Body_ChunkedSmall", body: baseOr, chunked: true, want: sweepUnion(shape, b.baseWant)})
	}

	// Not one valid JSON object.
	deepArr := strings.Repeat("[", 12000) + strings.Repeat("]", 12000)
	deepObj := strings.Repeat(`{"a":`, 10500) + "1" + strings.Repeat("}", 10500)
	shapes := []struct{ name, raw string }{
		{"NotJSON", "hello"}, {"Truncated", `{"a":`}, {"OpenBrace", "{"}, {"CloseBrace", "}"},
		{"Array", "[]"}, {"ArrayOfObject", "[{}]"}, {"String", `"x"`}, {"Number", "1"}, {"HugeNumber", "1e400"},
		{"Null", "null"}, {"True", "true"}, {"TwoObjects", "{}{}"}, {"TrailingComma", `{"a":1,}`},
		{"SingleQuotes", "{'a':1}"}, {"NaN", `{"a":NaN}`}, {"Comment", "{/*x*/}"}, {"LeadingZero", `{"a":01}`},
		{"BOM", "\xef\xbb\xbf" + string(baseOr)}, {"TrailingObject", string(baseOr) + "{}"},
		{"TrailingGarbage", string(baseOr) + " garbage"}, {"DeepArray", deepArr}, {"DeepObject", deepObj},
		{"DeepInField", `{"zzz":` + deepArr + `}`}, {"NULKey", `{"\u0000":1}`}, {"InvalidUTF8Key", "{\"\xff\":1}"},
		{"UnknownField", string(sweepObj(sweepWith(b.base, "zzz", "1")))},
	}
	// What each decoding rule refuses: not JSON, not one object, a field
	// the route does not have, anything after the object.
	perRoute := map[string]bool{"NotJSON": true, "Array": true, "UnknownField": true, "TrailingObject": true}
	for _, s := range shapes {
		if full || perRoute[s.name] {
			add(sweepCase{name: "Body_" + s.name, body: []byte(s.raw), want: shape})
		}
	}
	if len(b.base) > 0 && full {
		upper := make([]sweepKV, len(b.base))
		for i, f := range b.base {
			upper[i] = sweepKV{strings.ToUpper(f.k), f.raw}
		}
		add(sweepCase{name: "Body_UpperCaseKeys", body: sweepObj(upper), want: shape})
		first := b.base[0]
		dupLastBad := append(slices.Clone(b.base), sweepKV{first.k, "{}"})
		dupLastGood := append([]sweepKV{{first.k, "{}"}}, b.base...)
		add(sweepCase{name: "Body_DuplicateKeyLastInvalid", body: sweepObj(dupLastBad), want: shape})
		add(sweepCase{name: "Body_DuplicateKeyLastValid", body: sweepObj(dupLastGood), want: sweepUnion(shape, b.baseWant)})
	}

	// Every field: hostile strings and wrong-typed values.
	fields := slices.Clone(b.fields)
	for _, f := range b.base {
		if !slices.Contains(fields, f.k) {
			fields = append(fields, f.k)
		}
	}
	want := sweepUnion([]int{400}, b.baseWant)
	for _, f := range fields {
		guarded := b.base
		for _, g := range b.guards[f] {
			guarded = sweepWith(guarded, g.k, g.raw)
		}
		add(sweepCase{name: "Field_" + f + "_Missing", body: sweepObj(sweepWith(guarded, f, "")), want: want})
		for _, s := range sweepStrings {
			if !full && !sweepSample[s.name] {
				continue
			}
			add(sweepCase{name: "Field_" + f + "_" + s.name, body: sweepObj(sweepWith(guarded, f, sweepJS(s.v))), want: want})
		}
		for _, v := range sweepValues {
			if !full && !sweepSample[v.name] {
				continue
			}
			add(sweepCase{name: "Field_" + f + "_" + v.name, body: sweepObj(sweepWith(guarded, f, v.raw)), want: want})
		}
	}
}

// sweepParamCases aims the route at other users' ids and hostile ids; a
// route that is not full gets the sampled hostile texts and encodings.
func sweepParamCases(sp *sweepSpec, full bool, add func(sweepCase)) {
	want := sp.paramWant
	if want == nil {
		want = []int{404}
	}
	i := strings.Index(sp.tmpl, "{")
	j := strings.Index(sp.tmpl, "}")
	at := func(raw string) string { return sp.tmpl[:i] + raw + sp.tmpl[j+1:] }
	c := func(name, raw, decoded string) {
		w := want
		if sweepCleanChanges(at(decoded)) {
			// ServeMux redirects to the cleaned path before any handler runs.
			w = sweepUnion(w, sweepRedirects)
		}
		if strings.Contains(sp.tmpl, "{txnId}") && utf8.RuneCountInString(decoded) > 128 {
			w = []int{400} // longer than any txnId: the document's maxLength
		}
		cs := sweepCase{name: "Param_" + name, path: at(raw), body: sp.paramBody, want: w}
		// txnIds are matched case-insensitively (they are stored lower case),
		// so the upper-cased own txnId finds the payment rather than null.
		if slices.Contains(w, 200) && !(name == "OwnUpperCase" && strings.Contains(sp.tmpl, "{txnId}")) {
			cs.sub = sp.paramSub
		}
		add(cs)
	}
	c("OtherUsers", url.PathEscape(sp.other), sp.other)
	c("Unknown", "zzz_0000000000000000", "zzz_0000000000000000")
	c("OwnPlusSuffix", url.PathEscape(sp.own)+"x", sp.own+"x")
	c("OwnUpperCase", url.PathEscape(strings.ToUpper(sp.own)), strings.ToUpper(sp.own))
	for _, s := range sweepStrings {
		if s.v == "" || (!full && !sweepSample[s.name]) {
			continue // an empty segment is another path, covered under Paths
		}
		c(s.name, url.PathEscape(s.v), s.v)
	}
	c("EncodedSlash", "a%2Fb", "a/b")
	c("EncodedNUL", "%00", "\x00")
	if full {
		c("EncodedOwnSlash", url.PathEscape(sp.own)+"%2F", sp.own+"/")
		c("DoubleEncoded", "%252F%2500", "%2F%00")
		c("Semicolon", "x;y=1", "x;y=1")
		c("Long60k", strings.Repeat("a", 60000), strings.Repeat("a", 60000))
	}
}

// sweepRedirects are what ServeMux answers for a path it cleans (a redirect
// to the clean path: 301, or 307 in recent Go) or the catch-all's 404.
var sweepRedirects = []int{301, 307, 308, 404}

// sweepCleanChanges reports whether ServeMux would redirect the (decoded)
// path to a cleaned form.
func sweepCleanChanges(p string) bool {
	np := path.Clean(p)
	if strings.HasSuffix(p, "/") && np != "/" {
		np += "/"
	}
	return np != p
}

// ---------------------------------------------------------------------------
// Specs: one per registered route

func sweepSpecs(t *testing.T, fx *sweepFixtures) []*sweepSpec {
	own := "Bearer " + fx.key
	var specs []*sweepSpec
	add := func(s *sweepSpec) {
		if s.auth == "" {
			s.auth = own
		}
		if s.path == "" {
			s.path = strings.Replace(s.tmpl, s.tmpl[strings.Index(s.tmpl, "{"):strings.Index(s.tmpl, "}")+1], url.PathEscape(s.own), 1)
		}
		if s.okWant == nil && s.body == nil {
			s.okWant = []int{200}
		}
		specs = append(specs, s)
	}
	q400 := func(name, p string) sweepCase {
		return sweepCase{name: name, path: p, want: []int{400}, code: apperr.ErrValidation}
	}
	// qv names a raw query value for a subtest and escapes it for the URL.
	qv := func(v string) (string, string) { return strings.Trim(strconv.QuoteToASCII(v), `"`), url.QueryEscape(v) }
	q200 := func(name, p, sub string) sweepCase { return sweepCase{name: name, path: p, want: []int{200}, sub: sub} }
	pagingStrict := func(p string) []sweepCase {
		var out []sweepCase
		for _, v := range []string{"0", "-1", "abc", "1e3", "1.5", "99999999999999999999", "1000001", "\x00", " ", "1 "} {
			n, ev := qv(v)
			out = append(out, q400("Strict_page_"+n, p+"?page="+ev))
		}
		for _, v := range []string{"0", "-5", "abc", "1e400", "99999999999999999999", "'"} {
			n, ev := qv(v)
			out = append(out, q400("Strict_limit_"+n, p+"?limit="+ev))
		}
		return append(out, q200("Strict_limitClamped", p+"?limit=1000000", `"limit":100`))
	}
	boundsStrict := func(p string) []sweepCase {
		var out []sweepCase
		for _, v := range []string{"2026-13-01", "2026-02-30", "yesterday", "1e400", "2026-01-01T25:00:00Z", "2026-01-01 00:00:00",
			"' OR 1=1", "-001-01-01", "20260101", "2026-01-01T00:00:00", "2026-01-01T00:00:00+99:00", "２０２６-01-01", "2026-01-01\x00"} {
			n, ev := qv(v)
			out = append(out, q400("Strict_from_"+n, p+"?from="+ev), q400("Strict_to_"+n, p+"?to="+ev))
		}
		out = append(out, q400("Strict_toBeforeFrom", p+"?from=2026-02-01&to=2026-01-31"))
		return append(out, q200("Strict_widestBounds", p+"?from=0001-01-01&to=9999-12-31T23:59:59.999Z", ""))
	}
	fyStrict := func(p string) []sweepCase {
		var out []sweepCase
		for _, v := range []string{"2025-27", "2025", "25-26", "+025-26", "2025-2", "2025–26", "２０２５-26",
			"1999-00", "0000-01", "9999-00", "2025-26\x00", "' OR 1=1", " 2025-26", "2025-26 "} {
			n, ev := qv(v)
			out = append(out, q400("Strict_fy_"+n, p+"?fy="+ev))
		}
		return out
	}

	// Payments.
	initiate := sweepKVs("amount", "10.00", "currency", `"USD"`, "destinationAddress", sweepJS(testAddress), "memo", `"m"`,
		"purposeCode", `"P0802"`, "invoiceRef", `"INV-S"`, "counterpartyName", `"Acme"`, "counterpartyCountry", `"US"`, "counterpartyBank", `"Bank"`)
	add(&sweepSpec{pattern: "POST /api/v1/payments/initiate", path: "/api/v1/payments/initiate", auth: "Bearer " + fx.noKYCKey, idem: true,
		// The caller's KYC is not approved, so the cross-border base is
		// refused after validation, inside the transaction.
		body: &sweepBody{base: initiate, baseWant: []int{403},
			guards: map[string][]sweepKV{"counterpartyCountry": sweepKVs("currency", `"ZZZ"`)}},
		extra: []sweepCase{
			{name: "AmountOverCap", body: sweepObj(sweepWith(initiate, "amount", "1000000000000.01")), want: []int{400}, code: apperr.ErrValidation},
			{name: "AmountAsString", body: sweepObj(sweepWith(initiate, "amount", `"10.00"`)), want: []int{403}, code: apperr.ErrKYCRequired},
			{name: "AmountLeadingZeros", body: sweepObj(sweepWith(initiate, "amount", `"007.00"`)), want: []int{400}},
			{name: "CountryLowerCase", body: sweepObj(sweepWith(initiate, "counterpartyCountry", `"us"`)), want: []int{400}},
			{name: "DestinationSeed", body: sweepObj(sweepWith(initiate, "destinationAddress", sweepJS("SBU2RRGLXH3E5CQHTD3ODLDF2BWDCYUSSBLLZ5GNW7JXHDIYKXZWHOKR"))), want: []int{400}},
			{name: "DestinationBadChecksum", body: sweepObj(sweepWith(initiate, "destinationAddress", sweepJS(fx.badAddr))), want: []int{400}},
		}})
	confirm := sweepKVs("id", sweepJS(fx.otherPay), "destinationAddress", sweepJS(testAddress), "amount", `"20.00"`, "currency", `"USD"`, "memo", `"m"`, "vaultId", sweepJS(fx.vault))
	ownConfirm := sweepWith(sweepWith(confirm, "id", sweepJS(fx.initiated)), "amount", `"12.00"`)
	add(&sweepSpec{pattern: "POST /api/v1/payments/confirm", path: "/api/v1/payments/confirm", idem: true,
		body: &sweepBody{base: confirm, baseWant: []int{404}},
		extra: []sweepCase{
			{name: "OtherUsersPayment", body: sweepObj(confirm), want: []int{404}, code: apperr.ErrPaymentNotFound},
			{name: "OwnPaymentOtherUsersVault", body: sweepObj(sweepWith(ownConfirm, "vaultId", sweepJS(fx.otherVault))), want: []int{404}, code: apperr.ErrWalletNotFound},
			{name: "OwnPaymentUnknownVault", body: sweepObj(sweepWith(ownConfirm, "vaultId", `"vlt_nope"`)), want: []int{404}, code: apperr.ErrWalletNotFound},
			{name: "OwnPaymentAmountMismatch", body: sweepObj(sweepWith(ownConfirm, "amount", `"12.01"`)), want: []int{400}, code: apperr.ErrConfirmMismatch},
			{name: "OwnPaymentDestinationMismatch", body: sweepObj(sweepWith(ownConfirm, "destinationAddress", sweepJS(fx.badAddr))), want: []int{400}, code: apperr.ErrConfirmMismatch},
			{name: "OwnPaymentCurrencyMismatch", body: sweepObj(sweepWith(ownConfirm, "currency", `"EUR"`)), want: []int{400}, code: apperr.ErrConfirmMismatch},
			{name: "OwnPaymentAmountAsNumber", body: sweepObj(sweepWith(sweepWith(ownConfirm, "amount", "12.01"), "vaultId", sweepJS(fx.otherVault))), want: []int{400, 404}},
			{name: "OwnCompletedPayment", body: sweepObj(sweepWith(sweepWith(confirm, "id", sweepJS(fx.firaPay)), "amount", `"10.00"`)), want: []int{409}, code: apperr.ErrInvalidState},
			{name: "EURPaymentUSDVault", body: sweepObj(sweepWith(sweepWith(sweepWith(confirm, "id", sweepJS(fx.eurPay)), "amount", `"5.00"`), "currency", `"EUR"`)),
				want: []int{400}, code: apperr.ErrCurrencyMismatch},
		}})
	for _, p := range []string{"/api/v1/payments", "/api/v1/payments/payouts"} {
		add(&sweepSpec{pattern: "GET " + p, path: p, query: []string{"page", "limit", "status", "currency", "invoiceRef", "createdFrom", "createdTo", "after"},
			extra: append(pagingStrict(p),
				q400("Strict_statusTooLong", p+"?status="+strings.Repeat("S", 33)),
				q400("Strict_statusSQL", p+"?status=%27%20OR%20%271%27%3D%271"),
				q400("Strict_statusLowerCase", p+"?status=completed"),
				q200("Strict_statusKnown", p+"?status=FAILED", `"hasMore":false`),
				q400("Strict_currencyUnknown", p+"?currency=XYZ"),
				q400("Strict_invoiceRefTooLong", p+"?invoiceRef="+strings.Repeat("r", 129)),
				q400("Strict_createdFromText", p+"?createdFrom=yesterday"),
				q400("Strict_createdToBeforeFrom", p+"?createdFrom=2026-02-01&createdTo=2026-01-31"),
				q400("Strict_afterNotAPayment", p+"?after=evt_1"),
				q400("Strict_afterUnknownPayment", p+"?after=pay_0000000000"))})
	}
	add(&sweepSpec{pattern: "GET /api/v1/payments/providers/health", path: "/api/v1/payments/providers/health"})
	add(&sweepSpec{pattern: "GET /api/v1/payments/{a}/{b}", tmpl: "/api/v1/payments/payouts/{id}", own: fx.firaPay, other: fx.otherPay,
		extra: []sweepCase{
			{name: "UnknownSubresource", path: "/api/v1/payments/" + fx.firaPay + "/zzz", want: []int{404}, code: apperr.ErrNotFound},
			{name: "RetryWithGET", path: "/api/v1/payments/" + fx.firaPay + "/retry", want: []int{405}, code: "ERR_METHOD_NOT_ALLOWED"},
			{name: "PayoutsStatus", path: "/api/v1/payments/payouts/status", want: []int{404}},
		}})
	add(&sweepSpec{pattern: "GET /api/v1/payments/{a}/{b}", tmpl: "/api/v1/payments/{txnId}/status", own: fx.firaTxn, other: fx.otherTxn,
		paramWant: []int{200}, paramSub: "null"})
	add(&sweepSpec{pattern: "GET /api/v1/payments/{a}/{b}", tmpl: "/api/v1/payments/{id}/form15ca", own: fx.firaPay, other: fx.otherPay,
		extra: []sweepCase{
			// Was a 500 (a plain error from the rate table); now a 400 naming currency.
			{name: "NoINRRateForCurrency", path: "/api/v1/payments/" + fx.brlPay + "/form15ca", want: []int{400}, code: apperr.ErrValidation},
		}})
	add(&sweepSpec{pattern: "POST /api/v1/payments/{id}/retry", tmpl: "/api/v1/payments/{id}/retry", own: fx.firaPay, other: fx.otherPay, idem: true,
		body: &sweepBody{baseWant: []int{409}, emptyWant: []int{409}},
		extra: []sweepCase{
			{name: "OwnInitiated", path: "/api/v1/payments/" + fx.initiated + "/retry", want: []int{409}, code: apperr.ErrInvalidState},
			// {} is "no body" (as on kyc/start, rotate, enable); the state check answers.
			{name: "EmptyObjectBody", body: []byte("{}"), want: []int{409}, code: apperr.ErrInvalidState},
			{name: "FieldInBody", body: []byte(`{"force":true}`), want: []int{400}, code: apperr.ErrValidation},
		}})
	// A completed payout: every cancel of it is refused, so no case changes it.
	add(&sweepSpec{pattern: "POST /api/v1/payments/{id}/cancel", tmpl: "/api/v1/payments/{id}/cancel", own: fx.firaPay, other: fx.otherPay, idem: true,
		body: &sweepBody{baseWant: []int{409}, emptyWant: []int{409}},
		extra: []sweepCase{
			{name: "EmptyObjectBody", body: []byte("{}"), want: []int{409}, code: apperr.ErrInvalidState},
			{name: "FieldInBody", body: []byte(`{"reason":"x"}`), want: []int{400}, code: apperr.ErrValidation},
		}})
	quick := sweepKVs("amount", `"10.00"`, "currency", `"EUR"`, "recipient", sweepJS(testAddress), "reference", `"r"`)
	add(&sweepSpec{pattern: "POST /v1/payments", path: "/v1/payments", idem: true,
		// No EUR vault: refused inside the transaction, before any row.
		body: &sweepBody{base: quick, baseWant: []int{400}},
		extra: []sweepCase{
			{name: "InsufficientFundsRollsBackPayment", body: sweepObj(sweepWith(sweepWith(quick, "currency", `"USD"`), "amount", `"99999999.00"`)),
				want: []int{400}, code: apperr.ErrInsufficientFunds},
			{name: "NoVaultForCurrency", body: sweepObj(quick), want: []int{400}, code: apperr.ErrCurrencyMismatch},
		}})
	review := sweepKVs("decision", `"approve"`, "reason", `"r"`)
	add(&sweepSpec{pattern: "POST /api/v1/sandbox/payments/{id}/review", tmpl: "/api/v1/sandbox/payments/{id}/review", own: fx.otherPay, other: fx.otherPay,
		paramBody: sweepObj(review),
		body:      &sweepBody{base: review, baseWant: []int{404}},
		extra: []sweepCase{
			{name: "OwnCompleted", path: "/api/v1/sandbox/payments/" + fx.firaPay + "/review", body: sweepObj(review), want: []int{409}, code: apperr.ErrInvalidState},
			{name: "DecisionUpperCase", body: sweepObj(sweepWith(review, "decision", `"APPROVE"`)), want: []int{400}},
			{name: "LiveKey", auth: "Bearer " + fx.liveKey, body: sweepObj(review), want: []int{403}, code: apperr.ErrSandboxOnly},
		}})

	// Ledger and sequestration.
	add(&sweepSpec{pattern: "GET /api/v1/ledger/accounts", path: "/api/v1/ledger/accounts"})
	add(&sweepSpec{pattern: "GET /api/v1/ledger/accounts/{accountId}/balance", tmpl: "/api/v1/ledger/accounts/{accountId}/balance",
		own: fx.settle, other: fx.otherSettle,
		extra: []sweepCase{{name: "VaultIDAsAccount", path: "/api/v1/ledger/accounts/" + fx.vault + "/balance", want: []int{404}}}})
	entries := "/api/v1/ledger/accounts/" + fx.settle + "/entries"
	add(&sweepSpec{pattern: "GET /api/v1/ledger/accounts/{accountId}/entries", tmpl: "/api/v1/ledger/accounts/{accountId}/entries",
		own: fx.settle, other: fx.otherSettle, query: []string{"page", "limit", "from", "to", "after"},
		extra: append(pagingStrict(entries), boundsStrict(entries)...)})
	add(&sweepSpec{pattern: "GET /api/v1/ledger/reconciliation/{paymentId}", tmpl: "/api/v1/ledger/reconciliation/{paymentId}",
		own: fx.firaPay, other: fx.otherPay})
	resolve := sweepKVs("invoiceRef", `"INV-2"`, "note", `"n"`, "markAsException", "false")
	pending := "/api/v1/ledger/reconciliation/" + fx.pendingPay + "/resolve"
	add(&sweepSpec{pattern: "POST /api/v1/ledger/reconciliation/{paymentId}/resolve", tmpl: "/api/v1/ledger/reconciliation/{paymentId}/resolve",
		// Aimed at the caller's RECONCILED payout, so a valid body is a 409.
		own: fx.firaPay, other: fx.otherPay,
		body: &sweepBody{base: resolve, baseWant: []int{409}, emptyWant: []int{409}},
		extra: []sweepCase{
			{name: "OtherUsersPendingWithBody", path: "/api/v1/ledger/reconciliation/" + fx.otherPay + "/resolve", body: sweepObj(resolve), want: []int{404}},
			{name: "OwnPendingNoteTooLong", path: pending, body: sweepObj(sweepWith(resolve, "note", sweepJS(strings.Repeat("n", 513)))), want: []int{400}},
			{name: "OwnPendingInvoiceRefTooLong", path: pending, body: sweepObj(sweepWith(resolve, "invoiceRef", sweepJS(strings.Repeat("i", 129)))), want: []int{400}},
			{name: "OwnPendingExceptionAsString", path: pending, body: sweepObj(sweepWith(resolve, "markAsException", `"yes"`)), want: []int{400}},
			{name: "OwnPendingExceptionAsNumber", path: pending, body: sweepObj(sweepWith(resolve, "markAsException", "1")), want: []int{400}},
			{name: "OwnPendingMalformed", path: pending, body: []byte(`{"note":`), want: []int{400}},
			{name: "OwnPendingTrailing", path: pending, body: []byte(`{}x`), want: []int{400}},
			{name: "OwnPendingWrongType", path: pending, body: []byte("[]"), ctype: "text/plain", want: []int{415}},
		}})
	add(&sweepSpec{pattern: "GET /api/v1/tax/sequestration", path: "/api/v1/tax/sequestration"})
	policy := sweepKVs("enabled", "true", "rate", `"12.5"`, "trigger", `"nope"`)
	goodPolicy := sweepWith(policy, "trigger", `"on_settlement"`)
	var policyExtra []sweepCase
	for _, v := range []string{`"100.01"`, `"-1"`, "1e400", `"abc"`, `"12.345"`, "101", `"12,5"`, `" 12.5"`, "null", "[12.5]"} {
		policyExtra = append(policyExtra, sweepCase{name: "Rate_" + v, body: sweepObj(sweepWith(goodPolicy, "rate", v)), want: []int{400}, code: apperr.ErrValidation})
	}
	for _, v := range []string{`"true"`, "1", "null"} {
		policyExtra = append(policyExtra, sweepCase{name: "Enabled_" + v, body: sweepObj(sweepWith(goodPolicy, "enabled", v)), want: []int{400}, code: apperr.ErrValidation})
	}
	for _, v := range []string{"null", `"ON_SETTLEMENT"`, `"on_settlement "`, `["on_settlement"]`} {
		policyExtra = append(policyExtra, sweepCase{name: "Trigger_" + v, body: sweepObj(sweepWith(goodPolicy, "trigger", v)), want: []int{400}, code: apperr.ErrValidation})
	}
	add(&sweepSpec{pattern: "POST /api/v1/tax/sequestration/policy", path: "/api/v1/tax/sequestration/policy",
		body: &sweepBody{base: policy, baseWant: []int{400}}, extra: policyExtra})

	// FIRA, tax, GST, ITR-4, audit.
	fira := "/api/v1/compliance/fira"
	add(&sweepSpec{pattern: "GET /api/v1/compliance/fira", path: fira, query: []string{"page", "limit", "paymentId", "from", "to", "after"},
		extra: append(append(pagingStrict(fira), boundsStrict(fira)...),
			q400("Strict_paymentIdTooLong", fira+"?paymentId="+strings.Repeat("p", 65)),
			q200("Strict_paymentIdOtherUsers", fira+"?paymentId="+fx.otherPay, `"total":0`))})
	add(&sweepSpec{pattern: "GET /api/v1/compliance/fira/{firaId}", tmpl: "/api/v1/compliance/fira/{firaId}", own: fx.firaID, other: fx.otherFIRA,
		extra: []sweepCase{{name: "PaymentIDAsFIRA", path: fira + "/" + fx.firaPay, want: []int{404}, code: apperr.ErrFIRANotFound}}})
	add(&sweepSpec{pattern: "GET /api/v1/compliance/fira/{firaId}/pdf", tmpl: "/api/v1/compliance/fira/{firaId}/pdf", own: fx.firaID, other: fx.otherFIRA})
	for _, p := range []string{"/api/v1/compliance/gst/summary", "/api/v1/compliance/itr4/prefill", "/api/v1/compliance/itr4/prefill/export",
		"/api/v1/tax/liability", "/api/v1/tax/exports/itr4"} {
		add(&sweepSpec{pattern: "GET " + p, path: p, query: []string{"fy"},
			extra: append(fyStrict(p), q200("Strict_fy_current", p+"?fy=2025-26", ""))})
	}
	gst3b := "/api/v1/tax/exports/gst3b"
	var gst3bExtra []sweepCase
	for _, v := range []string{"", "2026-00", "2026-13", "2026-1", "202604", "2026-04-01", "-001-01", "2026–04", "26-04", "2026-04\x00", "' OR 1=1"} {
		n, ev := qv(v)
		gst3bExtra = append(gst3bExtra, q400("Strict_period_"+n, gst3b+"?period="+ev))
	}
	// Without a period the export is refused, so every generic case is a 400.
	add(&sweepSpec{pattern: "GET /api/v1/tax/exports/gst3b", path: gst3b, okWant: []int{400}, query: []string{"period"},
		extra: append(gst3bExtra, q200("Strict_periodValid", gst3b+"?period=2026-04", `"2026-04"`))})
	audit := "/api/v1/compliance/audit"
	add(&sweepSpec{pattern: "GET /api/v1/compliance/audit", path: audit, query: []string{"page", "limit", "from", "to", "action", "resourceId", "after"},
		extra: append(append(pagingStrict(audit), boundsStrict(audit)...),
			q400("Strict_actionTooLong", audit+"?action="+strings.Repeat("a", 65)),
			q400("Strict_resourceIdTooLong", audit+"?resourceId="+strings.Repeat("r", 129)),
			q200("Strict_resourceIdOtherUsers", audit+"?resourceId="+fx.otherPay, `"total":0`))})
	add(&sweepSpec{pattern: "GET /api/v1/compliance/audit/verify", path: "/api/v1/compliance/audit/verify"})

	// Profile, KYC, wallets.
	add(&sweepSpec{pattern: "GET /api/v1/profile", path: "/api/v1/profile"})
	add(&sweepSpec{pattern: "GET /api/v1/profile/full", path: "/api/v1/profile/full"})
	profile := sweepKVs("name", `"Sweep Name"`, "countryCode", `"XX"`)
	var profileExtra []sweepCase
	for _, b := range []struct{ name, body string }{
		{"NameBlank", `{"name":"   "}`}, {"NameTooLong", `{"name":` + sweepJS(strings.Repeat("n", 101)) + `}`},
		{"EmailNoDot", `{"email":"a@b"}`}, {"EmailWithName", `{"email":"Asha <a@b.co>"}`}, {"EmailNUL", `{"email":"a\u0000@b.co"}`},
		{"EmailCRLF", `{"email":"a@b.co\r\nBcc: x@y.z"}`}, {"PhoneLetters", `{"phone":"call me"}`}, {"PhoneNewline", `{"phone":"+91 98765 43210\n"}`},
		{"CountryLowerCase", `{"countryCode":"in"}`}, {"CurrencyUnknown", `{"homeCurrency":"ZZZ"}`},
		{"GSTINBadChecksum", `{"gstin":"27ABCPR1234K1ZZ"}`}, {"PANLowerCase", `{"pan":"abcpr1234k"}`},
		{"GSTINPANMismatch", `{"gstin":` + sweepJS(testGSTIN(t, testPAN)) + `,"pan":"ZZZPR9999Z"}`},
		{"LUTLowerCase", `{"lutNumber":"ad2704250012345"}`}, {"LUTDateInvalid", `{"lutValidUntil":"2026-02-30"}`},
		{"LUTDateTimestamp", `{"lutValidUntil":"2026-03-31T00:00:00Z"}`}, {"CamelVsSnake", `{"country_code":"IN"}`},
	} {
		profileExtra = append(profileExtra, sweepCase{name: b.name, body: []byte(b.body), want: []int{400}, code: apperr.ErrValidation})
	}
	profileExtra = append(profileExtra,
		sweepCase{name: "EmptyPatchIsANoOp", body: []byte("{}"), want: []int{200}},
		sweepCase{name: "NullFieldsAreANoOp", body: []byte(`{"name":null,"email":null}`), want: []int{200}})
	add(&sweepSpec{pattern: "PATCH /api/v1/profile", path: "/api/v1/profile",
		body: &sweepBody{base: profile, baseWant: []int{400},
			fields: []string{"email", "phone", "homeCurrency", "gstin", "pan", "lutNumber", "lutValidUntil"},
			guards: map[string][]sweepKV{"countryCode": sweepKVs("homeCurrency", `"ZZZ"`)}},
		extra: profileExtra})
	add(&sweepSpec{pattern: "GET /api/v1/profile/wallet", path: "/api/v1/profile/wallet", okWant: []int{200, 404}})
	link := sweepKVs("walletAddress", sweepJS(fx.badAddr), "provider", `"payoutd"`)
	add(&sweepSpec{pattern: "PATCH /api/v1/profile/link-wallet", path: "/api/v1/profile/link-wallet",
		body: &sweepBody{base: link, baseWant: []int{400}},
		extra: []sweepCase{
			{name: "ProviderUpperCase", body: []byte(`{"walletAddress":` + sweepJS(testAddress) + `,"provider":"PayoutD"}`), want: []int{400}},
			{name: "ProviderTooLong", body: []byte(`{"walletAddress":` + sweepJS(testAddress) + `,"provider":` + sweepJS(strings.Repeat("p", 65)) + `}`), want: []int{400}},
			{name: "ProviderSpace", body: []byte(`{"walletAddress":` + sweepJS(testAddress) + `,"provider":"a b"}`), want: []int{400}},
			{name: "AddressLowerCase", body: []byte(`{"walletAddress":` + sweepJS(strings.ToLower(testAddress)) + `}`), want: []int{400}},
			{name: "AddressSeed", body: []byte(`{"walletAddress":"SBU2RRGLXH3E5CQHTD3ODLDF2BWDCYUSSBLLZ5GNW7JXHDIYKXZWHOKR"}`), want: []int{400}},
		}})
	add(&sweepSpec{pattern: "GET /api/v1/kyc/status", path: "/api/v1/kyc/status"})
	add(&sweepSpec{pattern: "POST /api/v1/kyc/start", path: "/api/v1/kyc/start", idem: true,
		// The caller is APPROVED: a valid start is a no-op answered 200.
		body:  &sweepBody{base: []sweepKV{}, baseWant: []int{200}, emptyWant: []int{200}},
		extra: []sweepCase{{name: "AnyField", body: []byte(`{"redirectUrl":"https://evil.example"}`), want: []int{400}}}})
	add(&sweepSpec{pattern: "GET /api/v1/wallets", path: "/api/v1/wallets"})
	add(&sweepSpec{pattern: "GET /api/v1/wallets/summary", path: "/api/v1/wallets/summary"})
	add(&sweepSpec{pattern: "GET /api/v1/wallets/{id}", tmpl: "/api/v1/wallets/{id}", own: fx.vault, other: fx.otherVault,
		extra: []sweepCase{{name: "SettlementAccountAsWallet", path: "/api/v1/wallets/" + fx.settle, want: []int{404}, code: apperr.ErrWalletNotFound}}})
	wallet := sweepKVs("currency", `"USD"`, "name", `"Second USD"`)
	add(&sweepSpec{pattern: "POST /api/v1/wallets", path: "/api/v1/wallets", idem: true,
		// The caller already has its USD vault: a valid body is a 409.
		body: &sweepBody{base: wallet, baseWant: []int{409}},
		extra: []sweepCase{
			{name: "CurrencyLowerCase", body: sweepObj(sweepWith(wallet, "currency", `"usd"`)), want: []int{400}},
			{name: "CurrencyMetal", body: sweepObj(sweepWith(wallet, "currency", `"XAU"`)), want: []int{400}},
			{name: "CurrencyFund", body: sweepObj(sweepWith(wallet, "currency", `"USN"`)), want: []int{400}},
			{name: "NameTooLong", body: sweepObj(sweepWith(wallet, "name", sweepJS(strings.Repeat("n", 101)))), want: []int{400}},
		}})
	add(&sweepSpec{pattern: "POST /api/v1/sandbox/kyc/approve", path: "/api/v1/sandbox/kyc/approve",
		body: &sweepBody{base: []sweepKV{}, baseWant: []int{409}, emptyWant: []int{409}, fields: []string{"reason"}},
		extra: []sweepCase{
			{name: "ReasonOnApprove", body: []byte(`{"reason":"x"}`), want: []int{400}, code: apperr.ErrValidation},
			{name: "LiveKey", auth: "Bearer " + fx.liveKey, body: []byte("{}"), want: []int{403}, code: apperr.ErrSandboxOnly},
		}})
	add(&sweepSpec{pattern: "POST /api/v1/sandbox/kyc/reject", path: "/api/v1/sandbox/kyc/reject",
		body: &sweepBody{base: sweepKVs("reason", `"r"`), baseWant: []int{409}, emptyWant: []int{409}},
		extra: []sweepCase{
			{name: "ReasonTooLong", body: []byte(`{"reason":` + sweepJS(strings.Repeat("r", 257)) + `}`), want: []int{400}},
			{name: "LiveKey", auth: "Bearer " + fx.liveKey, body: []byte("{}"), want: []int{403}, code: apperr.ErrSandboxOnly},
		}})
	fund := sweepKVs("amount", `"0.001"`)
	add(&sweepSpec{pattern: "POST /api/v1/sandbox/vaults/{id}/fund", tmpl: "/api/v1/sandbox/vaults/{id}/fund", own: fx.vault, other: fx.otherVault, idem: true,
		paramBody: sweepObj(sweepKVs("amount", `"1.00"`)),
		body:      &sweepBody{base: fund, baseWant: []int{400}},
		extra: []sweepCase{
			{name: "OverBalanceLimit", body: sweepObj(sweepKVs("amount", "1000000000000")), want: []int{400}, code: apperr.ErrValidation},
			{name: "SettlementAccountAsVault", path: "/api/v1/sandbox/vaults/" + fx.settle + "/fund", body: sweepObj(sweepKVs("amount", `"1.00"`)), want: []int{404}},
			{name: "LiveKey", auth: "Bearer " + fx.liveKey, body: sweepObj(sweepKVs("amount", `"1.00"`)), want: []int{403}, code: apperr.ErrSandboxOnly},
		}})

	deposit := sweepKVs("amount", `"0.001"`, "from", `"f"`, "memo", `"m"`)
	add(&sweepSpec{pattern: "POST /api/v1/sandbox/vaults/{id}/deposits", tmpl: "/api/v1/sandbox/vaults/{id}/deposits", own: fx.vault, other: fx.otherVault, idem: true,
		paramBody: sweepObj(sweepKVs("amount", `"1.00"`)),
		body:      &sweepBody{base: deposit, baseWant: []int{400}},
		extra: []sweepCase{
			{name: "MemoTooLong", body: sweepObj(sweepKVs("amount", `"1.00"`, "memo", sweepJS(strings.Repeat("m", 29)))), want: []int{400}, code: apperr.ErrValidation},
			{name: "LiveKey", auth: "Bearer " + fx.liveKey, body: sweepObj(sweepKVs("amount", `"1.00"`)), want: []int{403}, code: apperr.ErrSandboxOnly},
		}})
	deps := "/api/v1/deposits"
	add(&sweepSpec{pattern: "GET /api/v1/deposits", path: deps, query: []string{"page", "limit", "after", "vaultId", "counterparty", "from", "to"},
		extra: append(append(pagingStrict(deps), boundsStrict(deps)...),
			q400("Strict_vaultIdNotAVault", deps+"?vaultId=pay_1"),
			q200("Strict_vaultIdOtherUsers", deps+"?vaultId="+fx.otherVault, `"total":0`))})
	add(&sweepSpec{pattern: "GET /api/v1/deposits/{id}", tmpl: "/api/v1/deposits/{id}", own: fx.deposit, other: fx.otherDeposit})

	// Webhooks and events.
	hook := sweepKVs("url", `"http://127.0.0.1:9/sweep"`, "description", `"d"`, "eventTypes", `["nope"]`)
	goodHook := sweepWith(hook, "eventTypes", "[]")
	var hookExtra []sweepCase
	for _, u := range []string{"javascript:alert(1)", "http://u:p@127.0.0.1/", "http://127.0.0.1/#frag", "http://127.0.0.1:0/",
		"http://127.0.0.1:70000/", "ftp://127.0.0.1/", "//127.0.0.1/x", "http://[::1", "http:///x", "http://a b/", "http://127.0.0.1/\x00",
		"file:///etc/passwd", "http://" + strings.Repeat("a", 3000) + ".example/"} {
		hookExtra = append(hookExtra, sweepCase{name: "URL_" + u, body: sweepObj(sweepWith(goodHook, "url", sweepJS(u))), want: []int{400}, code: apperr.ErrValidation})
	}
	hookExtra = append(hookExtra,
		sweepCase{name: "EventTypesMixed", body: sweepObj(sweepWith(goodHook, "eventTypes", `["payout.failed",5]`)), want: []int{400}},
		sweepCase{name: "EventTypesString", body: sweepObj(sweepWith(goodHook, "eventTypes", `"payout.failed"`)), want: []int{400}},
		sweepCase{name: "EventTypesUpper", body: sweepObj(sweepWith(goodHook, "eventTypes", `["PAYOUT.FAILED"]`)), want: []int{400}},
		sweepCase{name: "DescriptionTooLong", body: sweepObj(sweepWith(goodHook, "description", sweepJS(strings.Repeat("d", 257)))), want: []int{400}})
	add(&sweepSpec{pattern: "POST /api/v1/webhooks", path: "/api/v1/webhooks",
		body:  &sweepBody{base: hook, baseWant: []int{400}, guards: map[string][]sweepKV{"eventTypes": sweepKVs("url", `""`)}},
		extra: hookExtra})
	add(&sweepSpec{pattern: "GET /api/v1/webhooks", path: "/api/v1/webhooks"})
	add(&sweepSpec{pattern: "GET /api/v1/webhooks/{id}", tmpl: "/api/v1/webhooks/{id}", own: fx.webhook, other: fx.otherWebhook})
	// DELETE, rotate and enable are aimed at the other user's endpoint, so
	// their generic cases can never change anything.
	add(&sweepSpec{pattern: "DELETE /api/v1/webhooks/{id}", tmpl: "/api/v1/webhooks/{id}", own: fx.otherWebhook, other: fx.otherWebhook,
		okWant: []int{404}})
	// Rotate and enable take no body: a body other than {} is refused with
	// 400 before the endpoint is looked up (it once rotated on any body).
	add(&sweepSpec{pattern: "POST /api/v1/webhooks/{id}/rotate", tmpl: "/api/v1/webhooks/{id}/rotate", own: fx.otherWebhook, other: fx.otherWebhook,
		body: &sweepBody{baseWant: []int{400, 404}, emptyWant: []int{404}, shapeWant: []int{400, 404}},
		extra: []sweepCase{{name: "OwnEndpointMalformedBody", path: "/api/v1/webhooks/" + fx.webhook + "/rotate", body: []byte(`{"oops`),
			want: []int{400}}}})
	add(&sweepSpec{pattern: "POST /api/v1/webhooks/{id}/enable", tmpl: "/api/v1/webhooks/{id}/enable", own: fx.otherWebhook, other: fx.otherWebhook,
		body: &sweepBody{baseWant: []int{400, 404}, emptyWant: []int{404}, shapeWant: []int{400, 404}},
		extra: []sweepCase{{name: "OwnEndpointUnknownField", path: "/api/v1/webhooks/" + fx.webhook + "/enable", body: []byte(`{"status":"disabled"}`),
			want: []int{400}}}})
	deliveries := "/api/v1/webhooks/" + fx.webhook + "/deliveries"
	add(&sweepSpec{pattern: "GET /api/v1/webhooks/{id}/deliveries", tmpl: "/api/v1/webhooks/{id}/deliveries", own: fx.webhook, other: fx.otherWebhook,
		query: []string{"page", "limit", "eventId", "after"},
		extra: append(pagingStrict(deliveries), q400("Strict_eventIdNotEvent", deliveries+"?eventId=x"),
			q400("Strict_eventIdTooLong", deliveries+"?eventId=evt_"+strings.Repeat("e", 61)))})
	events := "/api/v1/events"
	add(&sweepSpec{pattern: "GET /api/v1/events", path: events, query: []string{"page", "limit", "type", "after"},
		extra: append(pagingStrict(events),
			q400("Strict_typeUnknown", events+"?type=payout.nope"),
			q400("Strict_typeUpperCase", events+"?type=PAYOUT.FAILED"),
			q400("Strict_afterNotEvent", events+"?after=x"),
			q400("Strict_afterUnknown", events+"?after=evt_nope"),
			q400("Strict_afterOtherUsers", events+"?after="+fx.otherEvent),
			q400("Strict_afterTooLong", events+"?after=evt_"+strings.Repeat("e", 61)))})
	add(&sweepSpec{pattern: "GET /api/v1/events/{id}", tmpl: "/api/v1/events/{id}", own: fx.event, other: fx.otherEvent})

	// The token exchange authenticates with the API key in the form.
	tok := "/api/v1/oauth/token"
	form := "application/x-www-form-urlencoded"
	add(&sweepSpec{pattern: "POST /api/v1/oauth/token", path: tok, okWant: []int{400}, noScopeWant: []int{400},
		form: []byte("grant_type=client_credentials&scope=nope:nope"),
		extra: []sweepCase{
			{name: "NoGrant", body: []byte(""), ctype: form, want: []int{400}},
			{name: "PasswordGrant", body: []byte("grant_type=password&username=a&password=b"), ctype: form, want: []int{400}},
			{name: "BadEscape", body: []byte("grant_type=client_credentials&scope=%ZZ"), ctype: form, want: []int{400}},
			{name: "UnknownScope", body: []byte("grant_type=client_credentials&scope=admin"), ctype: form, want: []int{400}},
			{name: "LongScope", body: []byte("grant_type=client_credentials&scope=" + strings.Repeat("s", 10000)), ctype: form, want: []int{400}},
			{name: "SQLScope", body: []byte("grant_type=client_credentials&scope=" + url.QueryEscape("' OR 1=1 --")), ctype: form, want: []int{400}},
			{name: "JSONBody", body: []byte(`{"grant_type":"client_credentials"}`), want: []int{415}},
			{name: "SecretGarbage", auth: "-", body: []byte("grant_type=client_credentials&client_secret=garbage"), ctype: form, want: []int{401}},
			{name: "SecretSQL", auth: "-", body: []byte("grant_type=client_credentials&client_secret=" + url.QueryEscape("sk_sandbox_' OR '1'='1")), ctype: form, want: []int{401}},
			{name: "SecretNUL", auth: "-", body: []byte("grant_type=client_credentials&client_secret=sk_sandbox_%00"), ctype: form, want: []int{401}},
			{name: "Oversized", body: []byte("grant_type=client_credentials&x=" + strings.Repeat("A", 100<<10)), ctype: form, want: []int{413}},
		}})
	sweepTaxPaymentSpecs(fx, add, pagingStrict, fyStrict)
	sweepLUTSpecs(fx, add)
	sweepInvoiceSpecs(fx, add)
	return specs
}

// sweepMiscPaths are paths that match no route at all.
func sweepMiscPaths(fx *sweepFixtures) []sweepCase {
	auth := "Bearer " + fx.key
	c := func(name, method, p string, want ...int) sweepCase {
		return sweepCase{name: name, method: method, path: p, auth: auth, want: want}
	}
	return []sweepCase{
		c("LongUnknown", "GET", "/api/v1/"+strings.Repeat("x", 10000), 404),
		c("ManySegments", "GET", "/api/v1/payments/"+strings.Repeat("a/", 5000)+"b", 404),
		c("VeryLong", "POST", "/api/v1/payments/initiate/"+strings.Repeat("%2F", 20000), 404),
		c("EncodedSlashInRoute", "GET", "/api/v1/payments%2Fpayouts", 404),
		c("EncodedNULSegment", "GET", "/api/v1/%00", 404),
		c("DoubleSlash", "GET", "/api/v1//payments", sweepRedirects...),
		c("DotSegment", "GET", "/api/v1/payments/./payouts", sweepRedirects...),
		c("DotDotSegment", "GET", "/api/v1/profile/../payments", sweepRedirects...),
		c("TrailingSlash", "GET", "/api/v1/payments/", 404),
		c("EmptyParam", "GET", "/api/v1/wallets/", 404),
		c("EmptyParamMiddle", "GET", "/api/v1/ledger/accounts//balance", sweepRedirects...),
		c("UpperCaseRoute", "GET", "/api/v1/PAYMENTS", 404),
		c("OldVersion", "GET", "/api/v0/payments", 404),
		c("QuickStartSubpath", "POST", "/v1/payments/x", 404),
		c("QuickStartGET", "GET", "/v1/payments", 404, 405),
		c("RepeatedQuery", "GET", "/api/v1/payments?page=1&page=abc", 400),
		c("SemicolonQuery", "GET", "/api/v1/payments?page=1;limit=5", 200, 400),
	}
}

// sweepCoverage fails when a route registered with s.api has no spec.
func sweepCoverage(t *testing.T, specs []*sweepSpec) {
	files, err := filepath.Glob("routes*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no routes*.go: %v", err)
	}
	have := map[string]bool{}
	for _, sp := range specs {
		have[sp.pattern] = true
	}
	re := regexp.MustCompile(`s\.api\("([^"]+)"`)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllStringSubmatch(string(src), -1) {
			if !have[m[1]] {
				t.Errorf("%s registers %q but the sweep has no spec for it", f, m[1])
			}
		}
	}
}

// ---------------------------------------------------------------------------
// Running and checking one case

var sweepClient = &http.Client{
	Timeout:       20 * time.Second,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// sweepRun sends one case and checks it; seen (if not nil) counts the
// answers by status.
func sweepRun(t *testing.T, e *env, fx *sweepFixtures, c sweepCase, seen map[int]int) {
	before := fx.fp
	if before == nil {
		before = sweepFingerprint(t, e)
	}
	r, err := sweepSend(e, c)
	if seen != nil {
		seen[r.Status]++
	}
	var probs []string
	if err != nil {
		probs = append(probs, "transport: "+err.Error())
	} else {
		probs = sweepCheck(fx, c, r)
	}
	after := sweepFingerprint(t, e)
	fx.fp = after
	for i := range before {
		if before[i] != after[i] {
			probs = append(probs, fmt.Sprintf("wrote: %s %s → %s", sweepFPNames[i], before[i], after[i]))
		}
	}
	if len(probs) > 0 {
		probs = append(probs, fmt.Sprintf("request: %s %s body=%s; response %d %s", c.method, sweepClip([]byte(c.path)), sweepClip(c.body), r.Status, sweepClip(r.Body)))
	}
	if c.bug != "" {
		if len(probs) > 0 {
			t.Skipf("BUG: %s\n%s", c.bug, strings.Join(probs, "\n"))
		}
		t.Errorf("marked as a known bug but passes now; remove the marker: %s", c.bug)
		return
	}
	for _, p := range probs {
		t.Error(p)
	}
}

func sweepSend(e *env, c sweepCase) (resp, error) {
	var rd io.Reader
	if c.body != nil {
		rd = bytes.NewReader(c.body)
		if c.chunked {
			rd = io.MultiReader(rd) // hides the length from the client
		}
	}
	req, err := http.NewRequest(c.method, e.URL+c.path, rd)
	if err != nil {
		return resp{}, err
	}
	if c.auth != "-" {
		req.Header.Set("Authorization", c.auth)
	}
	if c.body != nil && c.ctype != "-" {
		ct := c.ctype
		if ct == "" {
			ct = "application/json"
		}
		req.Header.Set("Content-Type", ct)
	}
	for i := 0; i+1 < len(c.headers); i += 2 {
		req.Header.Set(c.headers[i], c.headers[i+1])
	}
	res, err := sweepClient.Do(req)
	if err != nil {
		return resp{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return resp{Status: res.StatusCode, Header: res.Header, Body: b}, err
}

// sweepCodes are the documented error codes and their statuses.
var sweepCodes = map[string]int{
	apperr.ErrValidation: 400, apperr.ErrConfirmMismatch: 400, apperr.ErrInsufficientFunds: 400, apperr.ErrVaultNoKey: 400,
	apperr.ErrCurrencyMismatch: 400, apperr.ErrLiveNotConfigured: 400,
	apperr.ErrUnauthorized:      401,
	apperr.ErrInsufficientScope: 403, apperr.ErrKYCRequired: 403, apperr.ErrSandboxOnly: 403,
	apperr.ErrNotFound: 404, apperr.ErrPaymentNotFound: 404, apperr.ErrWalletNotFound: 404, apperr.ErrProfileNotFound: 404,
	apperr.ErrFIRANotFound:   404,
	"ERR_METHOD_NOT_ALLOWED": 405,
	apperr.ErrInvalidState:   409, apperr.ErrConflict: 409, apperr.ErrIdempotencyRunning: 409,
	"ERR_BODY_TOO_LARGE": 413, "ERR_UNSUPPORTED_MEDIA_TYPE": 415, apperr.ErrIdempotencyReused: 422, "ERR_RATE_LIMITED": 429,
}

// sweepInternals must never reach a client.
var sweepInternals = []string{"sqlite", "panic", "runtime error", "goroutine", "no such table", "database is locked", ".go:", "nil pointer"}

func sweepCheck(fx *sweepFixtures, c sweepCase, r resp) []string {
	var probs []string
	if r.Status >= 500 {
		probs = append(probs, fmt.Sprintf("server error %d", r.Status))
	}
	if c.want == nil {
		if r.Status < 400 || r.Status >= 500 {
			probs = append(probs, fmt.Sprintf("status %d, want a 4xx", r.Status))
		}
	} else if !slices.Contains(c.want, r.Status) {
		probs = append(probs, fmt.Sprintf("status %d, want one of %v", r.Status, c.want))
	}
	if r.Status >= 400 && c.method != http.MethodHead {
		probs = append(probs, sweepErrorBody(r)...)
		if c.code != "" && r.Status < 500 {
			var eb struct {
				Error struct{ Code string } `json:"error"`
			}
			if json.Unmarshal(r.Body, &eb); eb.Error.Code != c.code {
				probs = append(probs, fmt.Sprintf("error code %q, want %q", eb.Error.Code, c.code))
			}
		}
	}
	if c.sub != "" && r.Status >= 200 && r.Status < 300 && !bytes.Contains(r.Body, []byte(c.sub)) {
		probs = append(probs, fmt.Sprintf("2xx body lacks %q", c.sub))
	}
	for _, s := range []string{fx.otherUID, fx.otherEmail, fx.otherKey} {
		if bytes.Contains(r.Body, []byte(s)) {
			probs = append(probs, "body shows another user's data ("+s+")")
		}
	}
	if id := r.Header.Get("X-Request-Id"); !strings.HasPrefix(id, "req_") && r.Status != 301 {
		for i := 0; i+1 < len(c.headers); i += 2 {
			if strings.EqualFold(c.headers[i], "X-Request-Id") {
				probs = append(probs, fmt.Sprintf("X-Request-Id %q adopted from a hostile header", id))
			}
		}
	}
	return probs
}

// sweepErrorBody checks the documented error body exactly.
func sweepErrorBody(r resp) []string {
	var probs []string
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		return []string{fmt.Sprintf("error answered as %q, not the JSON error body", ct)}
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(r.Body, &top); err != nil {
		return []string{"error body is not a JSON object: " + err.Error()}
	}
	for k := range top {
		if k != "error" && k != "requestId" {
			probs = append(probs, "unexpected top-level key "+k)
		}
	}
	var reqID string
	if err := json.Unmarshal(top["requestId"], &reqID); err != nil || reqID == "" {
		probs = append(probs, "requestId missing or not a string")
	} else if h := r.Header.Get("X-Request-Id"); h != reqID {
		probs = append(probs, fmt.Sprintf("requestId %q differs from X-Request-Id %q", reqID, h))
	}
	var det map[string]json.RawMessage
	if err := json.Unmarshal(top["error"], &det); err != nil || det == nil {
		return append(probs, "error is missing or not an object")
	}
	for k := range det {
		if k != "code" && k != "message" && k != "fields" {
			probs = append(probs, "unexpected error key "+k)
		}
	}
	var code, msg string
	if json.Unmarshal(det["code"], &code); sweepCodes[code] == 0 {
		probs = append(probs, fmt.Sprintf("undocumented error code %q", code))
	} else if sweepCodes[code] != r.Status {
		probs = append(probs, fmt.Sprintf("code %s answered with %d, documented as %d", code, r.Status, sweepCodes[code]))
	}
	if json.Unmarshal(det["message"], &msg); strings.TrimSpace(msg) == "" {
		probs = append(probs, "empty error message")
	}
	for _, s := range sweepInternals {
		if strings.Contains(strings.ToLower(msg), s) {
			probs = append(probs, fmt.Sprintf("message leaks internals (%q): %s", s, msg))
		}
	}
	if raw, ok := det["fields"]; ok {
		var fields map[string]string
		if err := json.Unmarshal(raw, &fields); err != nil || len(fields) == 0 {
			probs = append(probs, "fields is not a non-empty object of strings")
		}
		for k, v := range fields {
			if v == "" {
				probs = append(probs, "empty message for field "+k)
			}
		}
	}
	return probs
}

var sweepFPNames = []string{"payments", "payments.updated_at", "audit_log", "ledger_postings", "events", "vaults", "profiles",
	"kyc", "kyc_sessions", "webhook_endpoints", "webhook_secrets", "sequestration_policies", "reconciliations", "firas", "api_keys", "tax_payments", "River's jobs"}

// sweepFingerprint summarises every table a request could write. River's
// periodic jobs (the purge of expired idempotency keys, rule 96A's watch,
// the look for dated notices) are the server's own, queued at start
// whenever River's leader gets to them, so they are not counted.
func sweepFingerprint(t *testing.T, e *env) []string {
	t.Helper()
	out := make([]string, len(sweepFPNames))
	dest := make([]any, len(out))
	for i := range out {
		dest[i] = &out[i]
	}
	err := e.SQL.QueryRow(`SELECT
		(SELECT count(*) FROM payments),
		(SELECT coalesce(sum(updated_at), 0) || ':' || coalesce(group_concat(status, ','), '') FROM payments),
		(SELECT count(*) FROM audit_log),
		(SELECT count(*) FROM ledger_postings),
		(SELECT count(*) FROM events),
		(SELECT count(*) || ':' || coalesce(sum(balance), 0) || ':' || coalesce(sum(reserved), 0) FROM vaults),
		(SELECT count(*) || ':' || coalesce(sum(updated_at), 0) FROM profiles),
		(SELECT coalesce(group_concat(status || updated_at || attempts, ','), '') FROM kyc),
		(SELECT count(*) FROM kyc_sessions),
		(SELECT count(*) || ':' || coalesce(sum(updated_at), 0) FROM webhook_endpoints),
		(SELECT count(*) || ':' || coalesce(sum(coalesce(expires_at, 0)), 0) FROM webhook_secrets),
		(SELECT count(*) || ':' || coalesce(sum(updated_at), 0) FROM sequestration_policies),
		(SELECT count(*) || ':' || coalesce(sum(status = 'RECONCILED'), 0) FROM reconciliations),
		(SELECT count(*) FROM firas),
		(SELECT count(*) || ':' || coalesce(sum(coalesce(revoked_at, 0) + coalesce(expires_at, 0)), 0) FROM api_keys),
		(SELECT count(*) || ':' || coalesce(sum(coalesce(reversed_at, 0)), 0) FROM tax_payments)`).Scan(dest[:len(dest)-1]...)
	if err != nil {
		t.Fatal(err)
	}
	queued := 0
	for _, j := range storetest.Jobs(t, e.River, river.NewJobListParams()) {
		if !sweepPeriodic[j.Kind] {
			queued++
		}
	}
	out[len(out)-1] = strconv.Itoa(queued)
	return out
}

// sweepPeriodic are the kinds of River's periodic jobs.
var sweepPeriodic = map[string]bool{jobs.IdempotencyPurgeArgs{}.Kind(): true, jobs.RealisationWatchArgs{}.Kind(): true,
	jobs.NoticeDatesArgs{}.Kind(): true}

func sweepClip(b []byte) string {
	const max = 200
	s := strings.ToValidUTF8(string(b), "?")
	if len(s) > max {
		s = s[:max] + fmt.Sprintf("…(%d bytes)", len(b))
	}
	return fmt.Sprintf("%q", s)
}
