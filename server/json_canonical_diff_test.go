package server

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"
)

// The reader was made faster; what it reads must not change. Every body
// here is read by today's reader and by the one before it
// (json_canonical_ref_test.go): the canonical bytes, the request hash an
// Idempotency-Key stores, the refusal (its kind, path and message) and the
// tree decodeJSON checks must be the same, or a retry sent before an
// upgrade would be refused after it.

// TestCanonicalJSONSameAsBefore runs the corpus: the bodies of the
// canonical tests, requests of every shape the API takes, and generated
// bodies (nested values, every escape, number spellings, repeats, broken
// syntax, invalid UTF-8) with their truncations and byte flips.
func TestCanonicalJSONSameAsBefore(t *testing.T) {
	t.Parallel()
	n := 0
	for _, body := range canonicalCorpus() {
		sameAsBefore(t, body)
		n++
	}
	if n < 20000 {
		t.Fatalf("corpus of %d bodies", n)
	}
}

// FuzzCanonicalJSONSameAsBefore: go test -fuzz FuzzCanonicalJSONSameAsBefore ./server/
func FuzzCanonicalJSONSameAsBefore(f *testing.F) {
	for _, body := range handWritten {
		f.Add([]byte(body))
	}
	f.Fuzz(func(t *testing.T, body []byte) { sameAsBefore(t, body) })
}

func sameAsBefore(t *testing.T, body []byte) {
	t.Helper()
	want, wantErr := refCanonicalJSON(body)
	got, gotErr := canonicalJSON(body)
	if !sameJSONError(gotErr, wantErr) {
		t.Fatalf("%q: refused with %v, before %v", body, gotErr, wantErr)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%q: canonical %q, before %q", body, got, want)
	}
	if gotHash, wantHash := requestHash(newCall(body)), refRequestHash(body); !bytes.Equal(gotHash, wantHash) {
		t.Fatalf("%q: request hash %x, before %x", body, gotHash, wantHash)
	}
	if wantErr != nil {
		return
	}
	r, v, _ := readJSON(body)
	rr, rv, _ := refReadJSON(body)
	if r.deepest != rr.deepest {
		t.Fatalf("%q: deepest %d, before %d", body, r.deepest, rr.deepest)
	}
	if err := sameTree(r, v, rr, rv); err != nil {
		t.Fatalf("%q: %v", body, err)
	}
}

func newCall(body []byte) *call {
	return &call{r: httptest.NewRequest("POST", "/api/v1/payments/initiate", nil), body: body}
}

// refRequestHash is requestHash as it was.
func refRequestHash(body []byte) []byte {
	h := sha256.New()
	h.Write([]byte("canonical POST /api/v1/payments/initiate\n"))
	if len(bytes.TrimSpace(body)) > 0 {
		if canon, err := refCanonicalJSON(body); err == nil {
			body = canon
		}
		h.Write(body)
	}
	return h.Sum(nil)
}

func sameJSONError(got, want error) bool {
	if got == nil || want == nil {
		return got == nil && want == nil
	}
	var gp, wp *jsonProblem
	if errors.As(want, &wp) {
		return errors.As(got, &gp) && *gp == *wp
	}
	return errors.Is(got, errJSONSyntax) && errors.Is(want, errJSONSyntax)
}

// sameTree compares what decodeJSON reads of a tree: kinds, texts, keys in
// order, elements, and each scalar's canonical bytes.
func sameTree(r *jsonReader, v jsonValue, rr *refReader, rv refValue) error {
	if v.kind != rv.kind || v.text != rv.text || len(v.object) != len(rv.object) || len(v.array) != len(rv.array) {
		return fmt.Errorf("value %c %q (%d members, %d elements), before %c %q (%d, %d)",
			v.kind, v.text, len(v.object), len(v.array), rv.kind, rv.text, len(rv.object), len(rv.array))
	}
	if s, rs := r.scalars[v.from:v.to], rr.scalars[rv.from:rv.to]; !bytes.Equal(s, rs) {
		return fmt.Errorf("scalar %q, before %q", s, rs)
	}
	if (v.object == nil) != (rv.object == nil) || (v.array == nil) != (rv.array == nil) {
		return fmt.Errorf("empty and absent told apart differently")
	}
	for i, m := range v.object {
		if m.key != rv.object[i].key {
			return fmt.Errorf("member %d: key %q, before %q", i, m.key, rv.object[i].key)
		}
		if err := sameTree(r, m.val, rr, rv.object[i].val); err != nil {
			return fmt.Errorf("%s: %w", m.key, err)
		}
	}
	for i, el := range v.array {
		if err := sameTree(r, el, rr, rv.array[i]); err != nil {
			return fmt.Errorf("[%d]: %w", i, err)
		}
	}
	return nil
}

// handWritten are the bodies of the canonical and decode tests, and
// requests as clients send them.
var handWritten = []string{
	`{"amount":"10.00","currency":"USD"}`, `{ "currency" : "USD",` + "\n\t" + `"amount" : "10.00" }`,
	`{"m":{"a":"1","b":"2","c":"3"}}`, `{"m":{"c":"3","a":"1","b":"2"}}`, `{"n":250}`, `{"n":250.00}`, `{"n":2.5e2}`,
	`{"n":0.5}`, `{"n":5E-1}`, `{"n":0}`, `{"n":-0.000}`, `{"s":"A\/é"}`, `{"s":"\u0041/\u00e9"}`, `{"s":"😀"}`,
	`{"s":"\ud83d\ude00"}`, `[1,2]`, `[2,1]`, `{"n":"250"}`, `{"n":250.01}`, `{"n":1e400}`, `{"n":1e401}`, `{"s":"a"}`,
	`{"s":"a "}`, `{"m":{}}`, `{"m":null}`, `{"a":true}`, `{"a":1}`,
	`{"amount":"10.00","currency":"USD","amount":"999999.00"}`, `{"metadata":{"k":"1","k":"2"}}`,
	`{"a":[{"x":1},{"y":1,"y":2}]}`, `{"memo":"\ud800"}`, `{"memo":"\udc00x"}`, `{"memo":"\ud800\u0041"}`,
	`{"metadata":{"k":"x\ud83d"}}`, `{"metadata":{"\udfff":"v"}}`, "{\"memo\":\"\xff\"}", `{"a":[{"b":[0,{"c":"\ud800"}]}]}`,
	``, `{`, `{"a":1,}`, `{"a" 1}`, `[1 2]`, `01`, `1.`, `.5`, `-`, `1e`, `"\x"`, `"\u12"`, `tru`, `{} {}`, ` `, "\t\n",
	`{"":1,"":2}`, `{"":{"":"\ud800"}}`, `{"":{"a":"\ud800"}}`, `[[],{},[{}],{"":[]}]`, `null`, `true`, `false`, `"x"`, `-1`,
	`{"n":1e-0000000000000000000007}`, `{"n":123456789012345678901234567890e-999999999999999999999}`, `{"n":-0e5}`,
	`{"n":100e+2}`, `{"n":0.000100}`, `{"n":1E+0}`, `{"n":-00}`, `{"n":1.0e}`, `{"n":+1}`, `{"s":"\u00e9\u00E9"}`,
	`{"s":"\uDBFF\uDFFF"}`, `{"s":"\uD800\uD800"}`, `{"s":"\u0000\u001f\u007f"}`, "{\"s\":\"\x01\"}", "{\"s\":\"\xed\xa0\x80\"}",
	"{\"s\":\"\xef\xbf\xbd\"}", "{\"s\":\"\xf4\x90\x80\x80\"}", `{"s":"\/\b\f\n\r\t\"\\"}`,
	`{"amount":"1250.00","currency":"USD","destinationAddress":"GABCDEFGHIJKLMNOPQRSTUVWXYZ234567ABCDEFGHIJKLMNOPQRSTUVW","counterpartyCountry":"US","purposeCode":"P0802","invoiceRef":"INV-2026-041","metadata":{"orderId":"o-1","client":"Acme"}}`,
	`{"amount":12.50,"currency":"USD","destinationAddress":"GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ","invoiceRef":"INV-1","counterpartyName":"Bench Client","counterpartyCountry":"US","purposeCode":"P0802"}`,
	`{"id":"pay_01","destinationAddress":"GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ","amount":"12.50","currency":"USD","vaultId":"vlt_1"}`,
	`{"url":"https://example.com/hooks","events":["payout.settled","payout.failed"]}`,
}

func canonicalCorpus() [][]byte {
	var out [][]byte
	add := func(b []byte) { out = append(out, b) }
	for _, s := range handWritten {
		add([]byte(s))
	}
	big := `{`
	for i := range 40 { // an object past the few keys checked without a set
		big += fmt.Sprintf(`"k%02d":%d,`, 39-i, i)
	}
	add([]byte(big + `"k07":0}`))
	add([]byte(big + `"z":0}`))
	rng := rand.New(rand.NewPCG(41, 2026))
	for range 7000 {
		b := genJSON(rng, 0)
		add(b)
		add(b[:rng.IntN(len(b)+1)]) // cut short
		flipped := bytes.Clone(b)
		if len(flipped) > 0 {
			flipped[rng.IntN(len(flipped))] = genPieces[rng.IntN(len(genPieces))][0]
		}
		add(flipped)
	}
	return out
}

// genPieces are what generated strings are made of.
var genPieces = []string{"a", "Z", " ", "é", "😀", "\\n", "\\\"", "\\\\", "\\/", "\\u00e9", "\\u00E9", "\\ud83d\\ude00",
	"\\ud800", "\\udc00", "\\u0000", "\\u001F", "\xff", "\xed\xa0\x80", "\x01", "\t", "\\x", "\\u12", "{", "}", "[", ",", ":", "\"", "0", "-", "e"}

var genNumbers = []string{"0", "-0", "00", "01", "1", "-1", "250", "250.00", "2.5e2", "2.5E+2", "25000e-2", "0.000", "-0.0e0",
	"1.", ".5", "-", "1e", "1e+", "12345678901234567890", "1e0000000000000000000000009", "1e999999999999999",
	"1e-9999999999999999", "123.456e-7890", "0.5e1", "1000000000000000000000000000000"}

func genJSON(rng *rand.Rand, depth int) []byte {
	ws := func() string { return []string{"", "", "", " ", "\n\t", "\r"}[rng.IntN(6)] }
	var b []byte
	b = append(b, ws()...)
	switch k := rng.IntN(10); {
	case depth < 4 && k < 3:
		b = append(b, '{')
		n := rng.IntN(5)
		if rng.IntN(30) == 0 {
			n = 20 + rng.IntN(10)
		}
		for i := range n {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, ws()...)
			b = append(b, genString(rng, 3)...)
			b = append(b, ws()...)
			b = append(b, ':')
			b = append(b, genJSON(rng, depth+1)...)
		}
		b = append(b, ws()...)
		b = append(b, '}')
	case depth < 4 && k < 5:
		b = append(b, '[')
		for i := range rng.IntN(5) {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, genJSON(rng, depth+1)...)
		}
		b = append(b, ']')
	case k < 7:
		b = append(b, genString(rng, 12)...)
	case k < 9:
		b = append(b, genNumbers[rng.IntN(len(genNumbers))]...)
	default:
		b = append(b, []string{"true", "false", "null", "tru", "nul"}[rng.IntN(5)]...)
	}
	return append(b, ws()...)
}

// genString is a string literal of up to n pieces, most of them plain,
// from a small alphabet so that object keys repeat.
func genString(rng *rand.Rand, n int) []byte {
	b := []byte{'"'}
	for range rng.IntN(n + 1) {
		if rng.IntN(4) == 0 {
			b = append(b, genPieces[rng.IntN(len(genPieces))]...)
		} else {
			b = append(b, "abc"[rng.IntN(3)])
		}
	}
	return append(b, '"')
}

// BenchmarkReadJSONBeside reads an initiate body with today's reader and
// the one before. On a shared machine ns/op is wall time; cpu-ns/op (the
// process's CPU time, the collector's included) is the figure to compare.
func BenchmarkReadJSONBeside(b *testing.B) {
	body := []byte(handWritten[len(handWritten)-3])
	req := newCall(nil).r
	for _, c := range []struct {
		name string
		read func() error
	}{
		{"now", func() error { _, _, err := readJSON(body); return err }},
		{"before", func() error { _, _, err := refReadJSON(body); return err }},
		{"nowWithHash", func() error {
			c := &call{r: req, body: body}
			if _, _, err := c.read(); err != nil {
				return err
			}
			requestHash(c)
			return nil
		}},
		{"beforeWithHash", func() error {
			if _, _, err := refReadJSON(body); err != nil {
				return err
			}
			refRequestHash(body)
			return nil
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := processCPU()
			for b.Loop() {
				if err := c.read(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
