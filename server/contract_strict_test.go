package server_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/payoutd/payoutd/store"
)

// flowStrict plants, for the whole document, requests just outside what it
// describes, and checks that the server draws the line where the document
// does, in both directions: a query parameter no operation lists (400 on
// the API, ignored by pages and probes) while every listed one is taken; a
// method a path does not serve (405 whose Allow is exactly the documented
// methods); amounts with each number of decimals in currencies of each
// exponent (the request schema and the server agree on every one); and an
// after cursor outside the filtered list (the document says it is taken).
func flowStrict(t *testing.T, f *fixtures) {
	t.Run("QueryParameters", func(t *testing.T) { strictQuery(t, f) })
	t.Run("Methods", func(t *testing.T) { strictMethods(t, f) })
	t.Run("AmountDecimals", func(t *testing.T) { strictAmounts(t, f) })
	t.Run("AfterOutsideFilter", func(t *testing.T) { strictAfter(t, f) })
}

// apiPath: the part of the document where unknown query parameters are 400.
func apiPath(p string) bool { return strings.HasPrefix(p, "/api/") || strings.HasPrefix(p, "/v1/") }

func strictQuery(t *testing.T, f *fixtures) {
	q := f.q
	for _, id := range sortedOpIDs(q.c) {
		op := q.c.ops[id]
		if strings.HasPrefix(op.Path, "/verify/") {
			continue // the hosted page needs its cookie session; it ignores query strings like /docs
		}
		if !apiPath(op.Path) {
			_, ok := okStatus(op)
			if !ok {
				t.Fatalf("%s: no documented success to expect", id)
			}
			r := q.do(t, call{op: id, key: noAuth, query: map[string]string{"contractProbe": "1"}})
			if r.Status >= 400 {
				t.Fatalf("%s with an unknown query parameter: %d, the document says pages and probes ignore it", id, r.Status)
			}
			continue
		}
		r := q.do(t, call{op: id, path: f.realPath(op), query: map[string]string{"contractProbe": "1"}, want: 400})
		want400(t, r, "contractProbe", id+" ?contractProbe=1")
		// Every parameter the document lists is one the server takes:
		// sent with its example, none is refused as unknown.
		r = q.do(t, call{op: id, path: f.realPath(op), query: f.baseQuery(op)})
		if !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			continue // a file (an export): nothing was refused
		}
		for name, msg := range asMap(asMap(r.value(t)["error"])["fields"]) {
			if strings.Contains(asStr(msg), "not a query parameter") {
				t.Fatalf("%s: documented parameter %s refused as unknown", id, name)
			}
		}
	}
}

// okStatus is an operation's first documented 2xx status.
func okStatus(op *operation) (string, bool) {
	for _, k := range sortedKeys(op.responses()) {
		if strings.HasPrefix(k, "2") {
			return k, true
		}
	}
	return "", false
}

func strictMethods(t *testing.T, f *fixtures) {
	q := f.q
	byPath := map[string][]string{}
	ex := map[string]*operation{}
	for _, op := range q.c.ops {
		byPath[op.Path] = append(byPath[op.Path], op.Method)
		ex[op.Path] = op
	}
	// Each path's Allow header is its own; the 405 answer is one handler's
	// for every method, so every undocumented method is sent to the first
	// path and one to each other path.
	for i, path := range sortedKeys(anyMap(byPath)) {
		documented := byPath[path]
		var allow []string
		for _, m := range []string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"} {
			if slices.Contains(documented, m) || (m == "HEAD" && slices.Contains(documented, "GET")) {
				allow = append(allow, m)
			}
		}
		_, req, _, err := q.build(call{op: ex[path].ID, noQuery: true, noBody: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE"} {
			if slices.Contains(allow, m) {
				continue
			}
			wrong, err := http.NewRequest(m, req.URL.String(), nil)
			if err != nil {
				t.Fatal(err)
			}
			wrong.Header = req.Header.Clone()
			res, err := q.client.Do(wrong)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != strings.Join(allow, ", ") {
				t.Fatalf("%s %s: %d Allow %q, the document has %v: %s", m, path, res.StatusCode, res.Header.Get("Allow"), allow, clip(body))
			}
			v, err := decodeJSONValue(body)
			if err != nil {
				t.Fatal(err)
			}
			if err := q.c.validate(t, "/components/schemas/Error", v); err != nil {
				t.Fatalf("%s %s: 405 body is not the Error schema: %v", m, path, err)
			}
			if code := asStr(asMap(asMap(v)["error"])["code"]); code != "ERR_METHOD_NOT_ALLOWED" {
				t.Fatalf("%s %s: 405 with code %s", m, path, code)
			}
			if i > 0 {
				break
			}
		}
	}
}

func anyMap[T any](m map[string]T) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// strictAmounts sends amounts with 0 to 4 decimals, zeros or not, in a
// currency of each exponent to initiate and confirm, and requires the
// request schema's verdict to be the server's.
func strictAmounts(t *testing.T, f *fixtures) {
	q := f.q
	for _, id := range []string{"initiatePayment", "confirmPayment"} {
		op := q.c.ops[id]
		ptr := op.ptr + "/requestBody/content/application~1json/schema"
		for _, cur := range []string{"JPY", "USD", "KWD"} {
			for _, amount := range []string{"15", "15.1", "15.0", "15.12", "15.10", "15.00", "15.123", "15.120", "15.1234", "15.1230"} {
				body := asMap(q.exampleBody(op))
				body["amount"], body["currency"] = amount, cur
				raw, err := json.Marshal(body)
				if err != nil {
					t.Fatal(err)
				}
				v := mustJSON(t, raw)
				documented := q.c.validate(t, ptr, v) == nil
				r := q.do(t, call{op: id, body: body})
				refused := r.Status == 400 && asMap(asMap(r.value(t)["error"])["fields"])["amount"] != nil
				if documented == refused {
					t.Fatalf("%s %s %s: the document says valid=%v, the server answered %d: %s", id, cur, amount, documented, r.Status, clip(r.Body))
				}
			}
		}
	}
}

// strictAfter: an after id that the status filter leaves out is taken (as
// the document says) and the page holds what follows it and matches; an id
// of another user's payment is 400 naming after.
func strictAfter(t *testing.T, f *fixtures) {
	q, e := f.q, f.e
	desc := ""
	for _, raw := range asArr(q.c.ops["listPayments"].raw["parameters"]) {
		if p := q.c.resolve(asMap(raw)); asStr(p["name"]) == "after" {
			desc = asStr(p["description"])
		}
	}
	if !strings.Contains(desc, "need not match the filters") {
		t.Fatalf("listPayments: the document does not say an after outside the filters is taken: %q", desc)
	}
	held := e.pay("100.66", nil)
	e.waitStatus(held, store.StatusManualReview, 20*time.Second)
	r := q.do(t, call{op: "listPayments", query: map[string]string{"status": "COMPLETED", "after": held, "page": "", "limit": "100"}, want: 200})
	items := asArr(r.value(t)["items"])
	if len(items) == 0 {
		t.Fatalf("nothing COMPLETED listed after %s: %s", held, clip(r.Body))
	}
	heldAt := asStr(q.do(t, call{op: "getPayout", path: map[string]string{"id": held}, want: 200}).value(t)["createdAt"])
	for _, it := range items {
		if p := asMap(it); asStr(p["status"]) != "COMPLETED" || asStr(p["createdAt"]) > heldAt {
			t.Fatalf("after %s (MANUAL_REVIEW) with status=COMPLETED listed %v", held, p)
		}
	}
	otherKey, _, _ := e.newUser(fmt.Sprintf("after-%s@example.com", held), false, store.AllScopes)
	other := q.do(t, call{op: "initiatePayment", key: otherKey, body: map[string]any{"amount": "1.00", "currency": "USD",
		"destinationAddress": testAddress}, want: 201}).value(t)
	r = q.do(t, call{op: "listPayments", query: map[string]string{"after": asStr(other["id"]), "page": ""}, want: 400})
	want400(t, r, "after", "listPayments after another user's payment")
}
