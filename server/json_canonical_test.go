package server

import (
	"encoding/json"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/payoutd/payoutd/apperr"
)

// TestCanonicalJSONSameValue: bodies a client may send for the same request
// (keys in another order, other spacing, other escapes, other spellings of
// one number) have one canonical form; different values do not.
func TestCanonicalJSONSameValue(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{`{"amount":"10.00","currency":"USD"}`, `{ "currency" : "USD",` + "\n\t" + `"amount" : "10.00" }`, true},
		{`{"m":{"a":"1","b":"2","c":"3"}}`, `{"m":{"c":"3","a":"1","b":"2"}}`, true},
		{`{"n":250}`, `{"n":250.00}`, true},
		{`{"n":250}`, `{"n":2.5e2}`, true},
		{`{"n":0.5}`, `{"n":5E-1}`, true},
		{`{"n":0}`, `{"n":-0.000}`, true},
		{`{"s":"A\/é"}`, `{"s":"\u0041/\u00e9"}`, true},
		{`{"s":"😀"}`, `{"s":"\ud83d\ude00"}`, true},
		{`[1,2]`, `[2,1]`, false},
		{`{"n":250}`, `{"n":"250"}`, false},
		{`{"n":250}`, `{"n":250.01}`, false},
		{`{"n":1e400}`, `{"n":1e401}`, false},
		{`{"s":"a"}`, `{"s":"a "}`, false},
		{`{"m":{}}`, `{"m":null}`, false},
		{`{"a":true}`, `{"a":1}`, false},
	} {
		ca, err := canonicalJSON([]byte(c.a))
		if err != nil {
			t.Fatalf("%s: %v", c.a, err)
		}
		cb, err := canonicalJSON([]byte(c.b))
		if err != nil {
			t.Fatalf("%s: %v", c.b, err)
		}
		if (string(ca) == string(cb)) != c.same {
			t.Errorf("%s (%s) vs %s (%s): same = %v, want %v", c.a, ca, c.b, cb, !c.same, c.same)
		}
	}
}

// TestCanonicalJSONRefuses: a duplicate key at any depth and a lone
// surrogate in any string are named by path; bad syntax is a syntax error.
func TestCanonicalJSONRefuses(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ body, path, msg string }{
		{`{"amount":"10.00","currency":"USD","amount":"999999.00"}`, "amount", "more than once"},
		{`{"metadata":{"k":"1","k":"2"}}`, "metadata.k", "more than once"},
		{`{"a":[{"x":1},{"y":1,"y":2}]}`, "a[1].y", "more than once"},
		{`{"memo":"\ud800"}`, "memo", "lone surrogate"},
		{`{"memo":"\udc00x"}`, "memo", "lone surrogate"},
		{`{"memo":"\ud800\u0041"}`, "memo", "lone surrogate"},
		{`{"metadata":{"k":"x\ud83d"}}`, "metadata.k", "lone surrogate"},
		{`{"metadata":{"\udfff":"v"}}`, "metadata", "lone surrogate"},
		{"{\"memo\":\"\xff\"}", "memo", "UTF-8"},
	} {
		_, err := canonicalJSON([]byte(c.body))
		var p *jsonProblem
		if !errors.As(err, &p) || p.path != c.path || !strings.Contains(p.msg, c.msg) {
			t.Errorf("%s: %v, want %s: …%s…", c.body, err, c.path, c.msg)
		}
	}
	for _, bad := range []string{``, `{`, `{"a":1,}`, `{"a" 1}`, `[1 2]`, `01`, `1.`, `.5`, `-`, `1e`, `"\x"`, `"\u12"`, `tru`, `{} {}`,
		strings.Repeat("[", maxJSONDepth+2) + strings.Repeat("]", maxJSONDepth+2)} {
		if _, err := canonicalJSON([]byte(bad)); !errors.Is(err, errJSONSyntax) {
			t.Errorf("%q: %v, want a syntax error", bad, err)
		}
	}
}

// TestJSONDepthLimitIsEncodingJSONs: decodeJSON takes exactly the nesting
// encoding/json takes, so a body at the limit reaches the same check the
// decoder would make (here: a nested value where a string belongs) and one
// past it is refused whole, after any duplicate key or lone surrogate the
// body holds. canonicalJSON reads one level more, so a body's canonical
// form (and the request hash made from it) does not depend on the limit.
func TestJSONDepthLimitIsEncodingJSONs(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		depth       int // objects and arrays, the outer object included
		rest        string
		field, want string
	}{
		{maxJSONDepth, ``, "memo", "must be a string"},
		{maxJSONDepth + 1, ``, "body", "must be a single JSON object"},
		{maxJSONDepth + 1, `,"invoiceRef":"\ud800"`, "invoiceRef", "lone surrogate"},
	} {
		inner := c.depth - 1
		body := `{"memo":` + strings.Repeat("[", inner) + strings.Repeat("]", inner) + c.rest + `}`
		var std any
		if err := json.Unmarshal([]byte(body), &std); c.rest == "" && (err == nil) != (c.depth <= maxJSONDepth) {
			t.Fatalf("depth %d: encoding/json says %v", c.depth, err)
		}
		var q struct {
			Memo       string `json:"memo"`
			InvoiceRef string `json:"invoiceRef"`
		}
		err := decodeJSON([]byte(body), &q)
		var ae *apperr.Error
		if !errors.As(err, &ae) || !strings.Contains(ae.Fields[c.field], c.want) {
			t.Errorf("depth %d%s: %v, want %s: …%s…", c.depth, c.rest, err, c.field, c.want)
		}
		if _, err := canonicalJSON([]byte(body)); c.rest == "" && err != nil {
			t.Errorf("depth %d: canonicalJSON refused it: %v", c.depth, err)
		}
	}
}

// TestCanonicalJSONDeepIsLinear: a body nested as deep as the limit allows
// costs memory in proportion to its size, not its depth squared (a path
// string per level, or a copy of every inner value per level, made a 20 KB
// body cost over 150 MB; it costs about 1 MB).
func TestCanonicalJSONDeepIsLinear(t *testing.T) {
	// Not parallel: the allocation counter is the whole process's.
	deep := maxJSONDepth - 1
	for name, body := range map[string]string{
		"array":          strings.Repeat("[", deep) + strings.Repeat("]", deep),
		"object":         strings.Repeat(`{"a":`, deep) + "1" + strings.Repeat("}", deep),
		"unsortedObject": strings.Repeat(`{"b":1,"a":`, deep/2) + "1" + strings.Repeat("}", deep/2),
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := canonicalJSON([]byte(body)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		runtime.ReadMemStats(&after)
		if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(1000*len(body)); got > limit {
			t.Errorf("%s: %d bytes of body allocated %d bytes, want at most %d", name, len(body), got, limit)
		}
		// decodeJSON walks the same depth for its text checks.
		field := `{"memo":` + body + `}`
		var q struct {
			Memo any `json:"memo"`
		}
		runtime.ReadMemStats(&before)
		if err := decodeJSON([]byte(field), &q); err != nil {
			t.Fatalf("%s in a field: %v", name, err)
		}
		runtime.ReadMemStats(&after)
		if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(1000*len(field)); got > limit {
			t.Errorf("%s in a field: %d bytes of body allocated %d bytes in decodeJSON, want at most %d", name, len(field), got, limit)
		}
	}
}

// TestCanonicalJSONProblemPaths: a problem deep in arrays and objects is
// named by its full path.
func TestCanonicalJSONProblemPaths(t *testing.T) {
	t.Parallel()
	body := `{"a":[{"b":[0,{"c":"\ud800"}]}]}`
	_, err := canonicalJSON([]byte(body))
	var p *jsonProblem
	if !errors.As(err, &p) || p.path != "a[0].b[1].c" {
		t.Fatalf("%v, want a problem at a[0].b[1].c", err)
	}
}

func BenchmarkCanonicalJSON(b *testing.B) {
	deep := maxJSONDepth - 1
	for _, c := range []struct{ name, body string }{
		{"initiate", `{"amount":"1250.00","currency":"USD","destinationAddress":"GABCDEFGHIJKLMNOPQRSTUVWXYZ234567ABCDEFGHIJKLMNOPQRSTUVW","counterpartyCountry":"US","purposeCode":"P0802","invoiceRef":"INV-2026-041","metadata":{"orderId":"o-1","client":"Acme"}}`},
		{"deepArray", strings.Repeat("[", deep) + strings.Repeat("]", deep)},
		{"deepUnsortedObject", strings.Repeat(`{"b":1,"a":`, deep/2) + "1" + strings.Repeat("}", deep/2)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(c.body)))
			for b.Loop() {
				if _, err := canonicalJSON([]byte(c.body)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
