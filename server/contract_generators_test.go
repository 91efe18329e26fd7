package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/openapi"
	"github.com/payoutd/payoutd/store"
)

// The generators an integrator is most likely to use, at pinned versions.
// Both must generate from openapi/openapi.json as it is, and the code they
// generate must compile.
const (
	oapiCodegen = "github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2"
	ogen        = "github.com/ogen-go/ogen/cmd/ogen@v1.24.0"
)

// genModule is go.mod of the temporary module the clients are generated
// into: the runtime modules the generated code imports, pinned, so the
// module graph is the same on every machine.
const genModule = `module gencheck

go 1.24

require (
	github.com/google/uuid v1.6.0
	github.com/oapi-codegen/runtime v1.9.0
	github.com/ogen-go/ogen v1.24.0
)
`

const oapiConfig = `package: apiclient
generate:
  models: true
  client: true
output: oapi/client.gen.go
`

// TestGeneratedClients generates a Go client from the document with
// oapi-codegen and with ogen, compiles both, and drives the quick flow
// through the oapi-codegen client against a real server (flowThroughClient).
// It downloads the generators through the Go module proxy; only where that
// is unreachable, and never under CI=true, does it skip.
func TestGeneratedClients(t *testing.T) {
	t.Parallel()
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	}
	dir := t.TempDir()
	write := func(name string, b []byte) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("openapi.json", openapi.Document())
	write("go.mod", []byte(genModule))
	write("oapi.yaml", []byte(oapiConfig))
	flowSrc, err := os.ReadFile(filepath.Join("testdata", "genclient", "flow.go"))
	if err != nil {
		t.Fatal(err)
	}
	write("cmd/flow/main.go", flowSrc)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	run := func(args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, goTool, args...)
		cmd.Dir = dir
		// The temporary module is its own: no workspace, and its go.sum is
		// written as modules are resolved.
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod -buildvcs=false")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	t.Run("oapi-codegen", func(t *testing.T) {
		if out, err := run("run", oapiCodegen, "-config", "oapi.yaml", "openapi.json"); err != nil {
			skipIfOffline(t, out)
			t.Fatalf("oapi-codegen refused openapi/openapi.json: %v\n%s", err, out)
		}
	})
	t.Run("ogen", func(t *testing.T) {
		if out, err := run("run", ogen, "-target", "ogenc", "-package", "ogenc", "-clean", "openapi.json"); err != nil {
			skipIfOffline(t, out)
			t.Fatalf("ogen refused openapi/openapi.json: %v\n%s", err, out)
		}
	})
	t.Run("Compile", func(t *testing.T) {
		if _, err := os.Stat(filepath.Join(dir, "oapi", "client.gen.go")); err != nil {
			t.Skip("no oapi-codegen client to compile")
		}
		if out, err := run("mod", "tidy"); err != nil {
			skipIfOffline(t, out)
			t.Fatalf("go mod tidy in the generated module: %v\n%s", err, out)
		}
		if out, err := run("build", "-trimpath", "./..."); err != nil {
			t.Fatalf("the generated clients do not compile: %v\n%s", err, out)
		}
		if out, err := run("build", "-trimpath", "-o", "flow", "./cmd/flow"); err != nil {
			t.Fatalf("the flow through the generated client does not compile: %v\n%s", err, out)
		}
	})
	t.Run("Flow", func(t *testing.T) {
		bin := filepath.Join(dir, "flow")
		if _, err := os.Stat(bin); err != nil {
			t.Skip("no compiled flow")
		}
		flowThroughClient(t, bin)
	})
}

// skipIfOffline skips when go could not reach the module proxy (a machine
// without network), never under CI=true.
func skipIfOffline(t *testing.T, out string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		return
	}
	for _, s := range []string{"dial tcp", "no such host", "i/o timeout", "connection refused", "network is unreachable",
		"TLS handshake timeout", "disabled by GOPROXY=off"} {
		if strings.Contains(out, s) {
			t.Skipf("the Go module proxy is unreachable, so the generators cannot be downloaded: %s", firstLine(out))
		}
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// flowThroughClient runs the compiled flow (testdata/genclient/flow.go)
// against a real payoutd and checks what it reports against the database:
// each amount stored to the minor unit, the FIRA's foreign amount, the
// ledger's debits and the tax liability's gross receipts.
func flowThroughClient(t *testing.T, bin string) {
	e := newEnv(t)
	e.approveKYC(e.UserID)
	odd := newOddProxy(t, e.URL)
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "PAYOUTD_URL="+odd.URL, "PAYOUTD_ODD_URL="+odd.URL+"/odd", "PAYOUTD_KEY="+e.Key)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the flow through the generated client failed: %v\n%s", err, stderr.String())
	}
	var rep struct {
		Payments []struct {
			ID, TxnID, Currency, Amount, AmountInr, FIRAAmount, Status string
			AmountMinor, Debited                                       int64
			ByMinor                                                    bool
			Versions                                                   []int64
		}
		GrossReceipts            string
		NullStatus               bool
		OgenNull                 bool
		OgenRetry                []string
		OgenKey                  string
		Cancelled                string
		CancelledStatus          []string
		UnknownOapi, UnknownOgen string
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("flow report: %v: %s", err, stdout.String())
	}
	if !rep.NullStatus || !rep.OgenNull {
		t.Errorf("a generated client cannot tell the status lookup's null from a payment (oapi-codegen %v, ogen %v)", rep.NullStatus, rep.OgenNull)
	}
	want := []struct {
		amount, currency string
		minor            int64
	}{{"1234567.89", "USD", 123456789}, {"99999999.99", "USD", 9999999999}, {"12345.678", "KWD", 12345678}}
	if len(rep.Payments) != len(want) {
		t.Fatalf("flow reported %d payments, want %d", len(rep.Payments), len(want))
	}
	inr, _ := money.Lookup("INR")
	var inrTotal int64
	for i, w := range want {
		got := rep.Payments[i]
		p, err := e.DB.Payments().FindPayment(context.Background(), e.UserID, got.ID)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s %s: stored %d minor, client read %s (%d minor), amountInr %s, FIRA %s, debited %d",
			w.currency, w.amount, p.Amount, got.Amount, got.AmountMinor, got.AmountInr, got.FIRAAmount, got.Debited)
		if p.Amount != w.minor || p.Currency != w.currency || p.Status != store.StatusCompleted {
			t.Errorf("initiated %s %s through the generated client; stored %d %s %s", w.amount, w.currency, p.Amount, p.Currency, p.Status)
		}
		if got.Amount != w.amount || got.AmountMinor != w.minor || got.FIRAAmount != w.amount {
			t.Errorf("%s %s: the client read amount %s, amountMinor %d, FIRA amount %s", w.amount, w.currency, got.Amount, got.AmountMinor, got.FIRAAmount)
		}
		if len(got.Versions) != 3 || got.Versions[0] != 1 || got.Versions[1] != 2 || got.Versions[2] != p.Version {
			t.Errorf("%s %s: versions through the client %v (initiate, confirm, completed), stored %d", w.amount, w.currency, got.Versions, p.Version)
		}
		if got.Debited != w.minor {
			t.Errorf("%s %s: the ledger entries the client paged through debit %d minor units", w.amount, w.currency, got.Debited)
		}
		if p.AmountINR == nil || got.AmountInr != money.Format(*p.AmountINR, inr) {
			t.Errorf("%s %s: the client read amountInr %s, stored %v", w.amount, w.currency, got.AmountInr, p.AmountINR)
		} else {
			inrTotal += *p.AmountINR
		}
	}
	if !rep.Payments[2].ByMinor {
		t.Error("the KWD payout was not initiated and confirmed with amountMinor")
	}
	generatedClientRetries(t, e, odd, rep.OgenKey, rep.OgenRetry)
	if c, err := e.DB.Payments().FindPayment(context.Background(), e.UserID, rep.Cancelled); err != nil || c.Status != store.StatusFailed ||
		len(rep.CancelledStatus) != 2 || rep.CancelledStatus[0] != rep.CancelledStatus[1] ||
		rep.CancelledStatus[0] != "FAILED CANCELLED: cancelled before it was confirmed v2" {
		t.Errorf("cancel through ogen answered %q; stored %+v, %v", rep.CancelledStatus, c, err)
	}
	if rep.UnknownOapi != oddStatus || rep.UnknownOgen != oddStatus {
		t.Errorf("a payment with status %s reads as %q through oapi-codegen and %q through ogen", oddStatus, rep.UnknownOapi, rep.UnknownOgen)
	}
	if rep.GrossReceipts != money.Format(inrTotal, inr) {
		t.Errorf("tax liability grossReceipts reads %s through the client, the payouts' INR amounts add up to %s",
			rep.GrossReceipts, money.Format(inrTotal, inr))
	}
}

// oddStatus is a payment status the document does not list.
const oddStatus = "RETURNED"

// oddProxy stands between the generated clients and payoutd: it keeps the
// body of every initiate, and under /odd it rewrites a payment's status
// to oddStatus, as a later payoutd with a new status would answer.
type oddProxy struct {
	*httptest.Server
	mu        sync.Mutex
	initiates map[string][]string // Idempotency-Key → bodies sent
}

func newOddProxy(t *testing.T, target string) *oddProxy {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	o := &oddProxy{initiates: map[string][]string{}}
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.ModifyResponse = func(res *http.Response) error {
		if !strings.HasPrefix(res.Request.Header.Get("X-Odd"), "1") || res.StatusCode != http.StatusOK {
			return nil
		}
		b, err := io.ReadAll(res.Body)
		if err != nil {
			return err
		}
		b = regexp.MustCompile(`"status":"[A-Z_]+"`).ReplaceAll(b, []byte(`"status":"`+oddStatus+`"`))
		res.Body, res.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
		res.Header.Set("Content-Length", strconv.Itoa(len(b)))
		return nil
	}
	o.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rest, ok := strings.CutPrefix(r.URL.Path, "/odd"); ok {
			r.URL.Path = rest
			r.Header.Set("X-Odd", "1")
		}
		if r.Method == http.MethodPost && r.URL.Path == "/api/v1/payments/initiate" {
			b, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			o.mu.Lock()
			key := strings.ToLower(r.Header.Get("Idempotency-Key"))
			o.initiates[key] = append(o.initiates[key], string(b))
			o.mu.Unlock()
			r.Body = io.NopCloser(bytes.NewReader(b))
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(o.Close)
	return o
}

// generatedClientRetries: ogen's ten retries of one initiate, which sent
// the same value with its metadata keys in more than one order, all came
// back with the one payment stored under the key.
func generatedClientRetries(t *testing.T, e *env, odd *oddProxy, key string, ids []string) {
	t.Helper()
	odd.mu.Lock()
	bodies := odd.initiates[key]
	odd.mu.Unlock()
	orders := map[string]bool{}
	for _, b := range bodies {
		orders[b] = true
	}
	t.Logf("ogen sent %d retries of one initiate in %d different byte orders", len(bodies), len(orders))
	if len(bodies) != 10 || len(orders) < 2 {
		t.Fatalf("ogen sent %d retries in %d byte orders; the test needs ten, reordered", len(bodies), len(orders))
	}
	p, err := e.DB.Payments().FindPaymentByTxnID(context.Background(), e.UserID, key)
	if err != nil {
		t.Fatalf("no payment under the retried key: %v", err)
	}
	for i, id := range ids {
		if id != p.ID {
			t.Fatalf("ogen retry %d of one initiate came back with payment %q, the key's payment is %s (all: %v)", i+1, id, p.ID, ids)
		}
	}
}

// TestContractGeneratorSafe keeps the document in the shape generators read
// right, offline: every number is format double (a bare number becomes a
// float32 in oapi-codegen), no type array mixes string and number, no
// numeric exclusiveMinimum (ogen misreads it), no top-level
// jsonSchemaDialect, and request amounts are decimal strings.
func TestContractGeneratorSafe(t *testing.T) {
	t.Parallel()
	c := loadContract(t)
	if _, ok := c.doc["jsonSchemaDialect"]; ok {
		t.Error("top-level jsonSchemaDialect is back")
	}
	var walk func(ptr string, v any)
	walk = func(ptr string, v any) {
		if a := asArr(v); a != nil {
			for i, e := range a {
				walk(ptr+"/"+strconv.Itoa(i), e)
			}
			return
		}
		m := asMap(v)
		if m == nil {
			return
		}
		switch ty := m["type"].(type) {
		case string:
			if ty == "number" && m["format"] != "double" {
				t.Errorf("%s: type number without format double", ptr)
			}
		case []any:
			if slices.Contains(ty, any("number")) || (slices.Contains(ty, any("integer")) && slices.Contains(ty, any("string"))) {
				t.Errorf("%s: type %v", ptr, ty)
			}
		}
		if _, ok := m["exclusiveMinimum"]; ok {
			t.Errorf("%s: exclusiveMinimum", ptr)
		}
		for k, e := range m {
			if k != "example" && k != "examples" {
				walk(ptr+"/"+ptrEscape(k), e)
			}
		}
	}
	walk("", c.doc)
	for _, name := range []string{"InitiateRequest", "ConfirmRequest", "QuickStartRequest", "FundRequest", "TaxPaymentRequest"} {
		amount := c.resolve(asMap(asMap(asMap(c.resolve(asMap(c.at("/components/schemas/" + name)))["properties"])["amount"])))
		if amount["type"] != "string" || asStr(amount["pattern"]) == "" {
			t.Errorf("%s.amount is not a decimal string with a pattern: %v", name, amount)
		}
	}
}
