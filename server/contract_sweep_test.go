package server_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/payoutd/payoutd/app"
	"github.com/payoutd/payoutd/app/apptest"
	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/server"
	"github.com/payoutd/payoutd/store"
)

// The sweeps derive error cases from the document itself, for every
// operation: no credential (401), a key without the scope (403), a body over
// 64 KiB (413) or of another media type (415), a path id that does not exist
// (the examples' ids never do: 404), and for idempotent operations a key
// that is not a UUID (400), reused with another request (422) and reused
// while the first request runs (409). Then every rule the document states on
// a request body field or a query parameter (required, type, enum, length,
// pattern, bounds, format) is broken one at a time: each must be refused
// with 400 naming that field. So a rule documented but not enforced, or
// enforced but not documented in the example's way, fails the test.

func itoa(i int) string { return strconv.Itoa(i) }

// tinyPNG is the smallest valid PNG (1×1).
var tinyPNG, _ = hex.DecodeString("89504e470d0a1a0a0000000d4948445200000001000000010806000000" +
	"1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")

// multipartDoc is the hosted page's document-upload form.
func multipartDoc(t *testing.T, csrf, name string, content []byte) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range map[string]string{"csrf": csrf, "action": "document", "kind": "pan_card"} {
		if err := mw.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	fw, err := mw.CreateFormFile("document", name)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(content)
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), mw.FormDataContentType()
}

func has(op *operation, status string) bool { return op.responses()[status] != nil }

func hasPathParams(op *operation) bool { return strings.Contains(op.Path, "{") }

// realPath: operations that look their path object up before validating
// the body need a real one for the body sweeps.
func (f *fixtures) realPath(op *operation) map[string]string {
	if op.ID == "sandboxFundVault" || op.ID == "sandboxDeposit" {
		return f.paths["vault"]
	}
	return nil
}

// baseQuery: examples that only work with real objects.
func (f *fixtures) baseQuery(op *operation) map[string]string {
	if op.ID == "listEvents" {
		return map[string]string{"after": f.eventID}
	}
	return nil
}

func sweeps(t *testing.T, f *fixtures) {
	q, e := f.q, f.e
	noScopes, _, _ := e.newUser("no-scopes@example.com", false, nil)
	for _, id := range sortedOpIDs(q.c) {
		op := q.c.ops[id]
		if strings.HasPrefix(op.Path, "/verify/") {
			continue // HTML pages: their errors are driven in flowKYC
		}
		t.Run(id, func(t *testing.T) {
			if len(op.scopes) > 0 {
				q.do(t, call{op: id, key: noAuth, want: 401})
				q.do(t, call{op: id, key: noScopes, want: 403})
			}
			if has(op, "413") {
				big := []byte(`{"pad":"` + strings.Repeat("a", 65<<10) + `"}`)
				ct := op.media
				if ct == "" {
					ct = "application/json"
				}
				q.do(t, call{op: id, raw: big, ctype: ct, want: 413})
			}
			if has(op, "415") {
				q.do(t, call{op: id, raw: []byte("hello"), ctype: "text/plain", want: 415})
			}
			if has(op, "404") && hasPathParams(op) {
				q.do(t, call{op: id, want: 404})
			}
			if op.idempotent {
				idempotencySweep(t, f, op)
			}
			if has(op, "400") && len(op.scopes) > 0 {
				bodyRules(t, f, op)
				queryRules(t, f, op)
			}
		})
	}
}

func sortedOpIDs(c *contract) []string {
	ids := make([]string, 0, len(c.ops))
	for id := range c.ops {
		ids = append(ids, id)
	}
	sortStrings(ids)
	return ids
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// want400 requires a 400 whose error.fields names field.
func want400(t *testing.T, r resp, field, what string) {
	t.Helper()
	fields := asMap(asMap(r.value(t)["error"])["fields"])
	if _, ok := fields[field]; !ok {
		t.Fatalf("%s: 400 does not name %q in error.fields: %s", what, field, r.Body)
	}
}

func idempotencySweep(t *testing.T, f *fixtures, op *operation) {
	q, e := f.q, f.e
	path := f.realPath(op)
	r := q.do(t, call{op: op.ID, path: path, headers: []string{"Idempotency-Key", "not-a-uuid"}, want: 400})
	want400(t, r, "Idempotency-Key", op.ID)

	key := newKey()
	q.do(t, call{op: op.ID, path: path, raw: []byte(`{"contractProbe":1}`), ctype: "application/json", headers: []string{"Idempotency-Key", key}, want: 400})
	q.do(t, call{op: op.ID, path: path, raw: []byte(`{"contractProbe":2}`), ctype: "application/json", headers: []string{"Idempotency-Key", key}, want: 422})

	// While the first request with a key waits for the (single) writer, a
	// second with the same key is refused at once with 409.
	key = newKey()
	started, release := make(chan struct{}), make(chan struct{})
	held := make(chan error, 1)
	go func() {
		held <- e.DB.WithTx(context.Background(), func(*store.Tx) error { close(started); <-release; return nil })
	}()
	<-started
	var letGo sync.Once
	defer letGo.Do(func() { close(release) }) // a failure below must not hold the writer for the next sweeps
	first := make(chan sent, 1)
	go func() { first <- q.send(call{op: op.ID, path: path, headers: []string{"Idempotency-Key", key}}) }()
	// The first request holds its key from before its first write until
	// its answer, and cannot answer while the writer is held. (Goroutines
	// parked in the writer prove nothing here: tests running beside this
	// one park their own servers' requests there.)
	wait.Until(t, 30*time.Second, "the first request to hold its key", func() bool {
		return e.Server.IdempotencyKeyHeld(e.UserID, strings.ToLower(key))
	})
	second := q.send(call{op: op.ID, path: path, headers: []string{"Idempotency-Key", key}})
	letGo.Do(func() { close(release) })
	if err := <-held; err != nil {
		t.Fatal(err)
	}
	one := <-first
	for _, s := range []sent{one, second} {
		if s.err != nil {
			t.Fatal(s.err)
		}
		q.c.check(t, s.op, s.r)
	}
	if second.r.Status != http.StatusConflict {
		t.Fatalf("%s: a concurrent duplicate got %d, not 409: %s", op.ID, second.r.Status, second.r.Body)
	}
	if code := second.r.errCode(t); code != apperr.ErrIdempotencyRunning {
		t.Fatalf("%s: 409 %s, want %s", op.ID, code, apperr.ErrIdempotencyRunning)
	}
}

// sent is a response obtained off the test goroutine, checked on it.
type sent struct {
	op  *operation
	r   resp
	err error
}

func (q *requester) send(cl call) sent {
	op, req, _, err := q.build(cl)
	if err != nil {
		return sent{op: op, err: err}
	}
	res, err := q.client.Do(req)
	if err != nil {
		return sent{op: op, err: err}
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return sent{op: op, r: resp{Status: res.StatusCode, Header: res.Header, Body: b}, err: err}
}

// bodyRules breaks each documented rule of each request body field.
func bodyRules(t *testing.T, f *fixtures, op *operation) {
	if op.media != "application/json" {
		return
	}
	q := f.q
	path := f.realPath(op)
	ex := asMap(q.exampleBody(op))
	r := q.do(t, call{op: op.ID, path: path, patch: map[string]any{"contractProbe": 1}, want: 400})
	want400(t, r, "contractProbe", op.ID+" unknown field")
	sch := q.c.resolve(asMap(asMap(asMap(asMap(op.raw["requestBody"])["content"])[op.media])["schema"]))
	for _, req := range asArr(sch["required"]) {
		name := asStr(req)
		r := q.do(t, call{op: op.ID, path: path, patch: map[string]any{name: nil}, want: 400})
		want400(t, r, name, op.ID+" without "+name)
	}
	oneParse(t, f, op, ex, sch)
	for name, raw := range asMap(sch["properties"]) {
		for _, bad := range violations(q.c, asMap(raw), ex[name], false) {
			body := asMap(deepCopy(ex))
			if body == nil {
				body = map[string]any{}
			}
			body[name] = bad
			r := q.do(t, call{op: op.ID, path: path, body: body, want: 400})
			want400(t, r, name, op.ID+" "+name+"="+short(bad))
		}
	}
}

// oneParse sends, for each field of the body, the example with that key
// given twice, and for each string field (or list of strings) the example
// with a lone surrogate escape in it: each must be refused with 400 naming
// the field, whatever the field's own rules.
func oneParse(t *testing.T, f *fixtures, op *operation, ex map[string]any, sch map[string]any) {
	q := f.q
	path := f.realPath(op)
	rest := func(without string) string {
		m := asMap(deepCopy(ex))
		if m == nil {
			m = map[string]any{}
		}
		delete(m, without)
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if len(m) == 0 {
			return "}"
		}
		return "," + string(b[1:])
	}
	for _, name := range sortedKeys(asMap(sch["properties"])) {
		key, _ := json.Marshal(name)
		if v, ok := ex[name]; ok {
			val, _ := json.Marshal(v)
			body := "{" + string(key) + ":" + string(val) + "," + string(key) + ":" + string(val) + rest(name)
			r := q.do(t, call{op: op.ID, path: path, raw: []byte(body), ctype: "application/json", want: 400})
			want400(t, r, name, op.ID+" with "+name+" twice")
		}
		prop := q.c.resolve(asMap(asMap(sch["properties"])[name]))
		lone, field := "", name
		switch {
		case prop["type"] == "string":
			lone = `"x\ud800"`
		case prop["type"] == "array" && q.c.resolve(asMap(prop["items"]))["type"] == "string":
			lone, field = `["\udc00"]`, name+"[0]"
		default:
			continue
		}
		r := q.do(t, call{op: op.ID, path: path, raw: []byte("{" + string(key) + ":" + lone + rest(name)), ctype: "application/json", want: 400})
		want400(t, r, field, op.ID+" "+name+" with a lone surrogate")
	}
}

// queryRules breaks each documented rule of each query parameter, and
// sends each empty (name=), which is 400 whatever its rules.
func queryRules(t *testing.T, f *fixtures, op *operation) {
	q := f.q
	for _, raw := range asArr(op.raw["parameters"]) {
		p := q.c.resolve(asMap(raw))
		if asStr(p["in"]) != "query" {
			continue
		}
		name := asStr(p["name"])
		base := f.baseQuery(op)
		if p["required"] == true {
			r := q.do(t, call{op: op.ID, query: merge(base, map[string]string{name: ""}), want: 400})
			want400(t, r, name, op.ID+" without "+name)
		}
		r := q.do(t, call{op: op.ID, query: merge(base, map[string]string{name: emptyQuery}), want: 400})
		want400(t, r, name, op.ID+" ?"+name+"= (empty)")
		for _, bad := range violations(q.c, asMap(p["schema"]), p["example"], true) {
			v := fmt.Sprint(bad)
			if v == "" {
				v = emptyQuery
			}
			r := q.do(t, call{op: op.ID, query: merge(base, map[string]string{name: v}), want: 400})
			want400(t, r, name, op.ID+" ?"+name+"="+v)
		}
	}
}

func merge(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}

// violations are values that break one rule of schema s each; ex is the
// documented example (mutated to break a pattern). inQuery limits them to
// what a query string can carry.
func violations(c *contract, s map[string]any, ex any, inQuery bool) []any {
	s = c.resolve(s)
	var out []any
	types := map[string]bool{}
	switch ty := s["type"].(type) {
	case string:
		types[ty] = true
	case []any:
		for _, x := range ty {
			types[asStr(x)] = true
		}
	}
	if !inQuery && len(types) > 0 {
		if types["boolean"] {
			out = append(out, "not-a-boolean")
		} else {
			out = append(out, true)
		}
	}
	if inQuery && types["integer"] {
		out = append(out, "not-a-number")
	}
	if s["enum"] != nil {
		out = append(out, "zz-not-in-enum")
	}
	if n, ok := num(s["maxLength"]); ok {
		out = append(out, strings.Repeat("A", n+1))
	}
	if n, ok := num(s["minLength"]); ok && n > 0 {
		out = append(out, strings.Repeat("A", n-1))
	}
	if pat := asStr(s["pattern"]); pat != "" {
		if exs, ok := ex.(string); ok && exs != "" {
			mutated := "!" + exs[1:]
			if re, err := regexp.Compile(pat); err == nil && !re.MatchString(mutated) {
				out = append(out, mutated)
			}
		}
	}
	if v, ok := s["exclusiveMinimum"].(json.Number); ok {
		out = append(out, v)
	}
	if v, ok := s["minimum"].(json.Number); ok {
		if n, err := v.Int64(); err == nil {
			out = append(out, json.Number(strconv.FormatInt(n-1, 10)))
		}
	}
	if v, ok := s["maximum"].(json.Number); ok {
		out = append(out, json.Number(string(v)+"0"))
	}
	if asStr(s["format"]) == "email" {
		out = append(out, "not-an-email")
	}
	if items := c.resolve(asMap(s["items"])); items != nil && items["enum"] != nil && !inQuery {
		out = append(out, []any{"zz-not-in-enum"})
	}
	return out
}

func num(v any) (int, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	i, err := strconv.Atoi(string(n))
	return i, err == nil
}

// rateLimitSweep: with every limit at zero, each rate-limited operation's
// example request is refused with 429 and Retry-After.
func rateLimitSweep(t *testing.T, c *contract) {
	limits := map[string]int{}
	for _, r := range registeredRoutes(t) {
		limits[r.LimitName] = 0
	}
	limits["auth-failures"] = 0 // the token endpoint's 429
	e := newEnv(t, func(o *envOpts) { o.noRiver, o.limits = true, limits })
	q := &requester{c: c, base: e.URL, key: e.Key, client: browserClient(t, false)}
	n := 0
	for _, id := range sortedOpIDs(c) {
		if has(c.ops[id], "429") {
			q.do(t, call{op: id, want: 429})
			n++
		}
	}
	if n < 50 {
		t.Fatalf("only %d operations document 429", n)
	}
}

// flowUnready: /readyz is 503 once the database is gone.
func flowUnready(t *testing.T, c *contract) {
	ctx := context.Background()
	cfg := apptest.Config(t, "", app.Config{})
	sealer := cfg.Sealer
	a, err := app.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	db := a.DB
	srv, err := server.New(ctx, db, server.Config{BaseURL: "http://payoutd.test", Sealer: sealer, Rates: rates.Default(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	q := &requester{c: c, base: hs.URL, client: browserClient(t, false)}
	q.do(t, call{op: "getReadyz", key: noAuth, want: 200})
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	q.do(t, call{op: "getReadyz", key: noAuth, want: 503})
}
