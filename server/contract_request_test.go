package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Requests built from the document's examples.

// call is one request: by default the operation's example (path, query and
// body examples), sent with the env's default key.
type call struct {
	op      string
	key     string            // bearer credential; "" = the default key, noAuth = none
	path    map[string]string // path parameters (default: their examples)
	query   map[string]string // query overrides; "" removes the parameter
	noQuery bool              // send no query parameters
	patch   map[string]any    // changes to the example body; nil value removes a field
	body    any               // replaces the example body (JSON)
	raw     []byte            // exact body bytes with ctype
	ctype   string
	noBody  bool
	headers []string
	want    int
	base    string       // another server (default: the env's)
	client  *http.Client // e.g. a browser with cookies
}

const noAuth = "-"

// requester sends calls for one env.
type requester struct {
	c      *contract
	base   string
	key    string
	client *http.Client
}

// exampleBody is the request body example of op (a copy).
func (q *requester) exampleBody(op *operation) any {
	if op.media == "" {
		return nil
	}
	mt := asMap(asMap(asMap(op.raw["requestBody"])["content"])[op.media])
	return deepCopy(mt["example"])
}

// build turns a call into an HTTP request.
// emptyQuery in call.query sends the parameter with an empty value
// (name=); "" leaves it out.
const emptyQuery = "\x00empty"

func (q *requester) build(cl call) (*operation, *http.Request, []byte, error) {
	op := q.c.ops[cl.op]
	if op == nil {
		return nil, nil, nil, fmt.Errorf("no operation %q in openapi.json", cl.op)
	}
	path := op.Path
	query := url.Values{}
	for _, raw := range asArr(op.raw["parameters"]) {
		p := q.c.resolve(asMap(raw))
		name := asStr(p["name"])
		ex := fmt.Sprint(p["example"])
		switch asStr(p["in"]) {
		case "path":
			v, ok := cl.path[name]
			if !ok {
				v = ex
			}
			path = strings.ReplaceAll(path, "{"+name+"}", url.PathEscape(v))
		case "query":
			if !cl.noQuery && p["example"] != nil {
				query.Set(name, ex)
			}
		}
	}
	for k, v := range cl.query {
		switch v {
		case "":
			query.Del(k)
		case emptyQuery:
			query.Set(k, "")
		default:
			query.Set(k, v)
		}
	}
	target := q.base
	if cl.base != "" {
		target = cl.base
	}
	target += path
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	var body []byte
	ctype := ""
	switch {
	case cl.raw != nil:
		body, ctype = cl.raw, cl.ctype
	case cl.noBody:
	case op.media != "":
		v := q.exampleBody(op)
		if cl.body != nil {
			v = cl.body
		}
		if m, ok := v.(map[string]any); ok {
			for k, x := range cl.patch {
				if x == nil {
					delete(m, k)
				} else {
					m[k] = x
				}
			}
		}
		ctype = op.media
		if op.media == "application/x-www-form-urlencoded" {
			form := url.Values{}
			for k, x := range asMap(v) {
				form.Set(k, fmt.Sprint(x))
			}
			body = []byte(form.Encode())
		} else {
			var err error
			if body, err = json.Marshal(v); err != nil {
				return nil, nil, nil, err
			}
		}
	}
	if cl.ctype != "" {
		ctype = cl.ctype
	}
	req, err := http.NewRequest(op.Method, target, bytes.NewReader(body))
	if err != nil {
		return nil, nil, nil, err
	}
	switch cl.key {
	case "":
		req.Header.Set("Authorization", "Bearer "+q.key)
	case noAuth:
	default:
		req.Header.Set("Authorization", "Bearer "+cl.key)
	}
	if ctype != "" && body != nil {
		req.Header.Set("Content-Type", ctype)
	}
	for i := 0; i+1 < len(cl.headers); i += 2 {
		req.Header.Set(cl.headers[i], cl.headers[i+1])
	}
	return op, req, body, nil
}

// do sends a call, requires its status, validates the response against the
// document, and, for a success, the request body against its schema too.
func (q *requester) do(t *testing.T, cl call) resp {
	t.Helper()
	op, req, body, err := q.build(cl)
	if err != nil {
		t.Fatal(err)
	}
	client := q.client
	if cl.client != nil {
		client = cl.client
	}
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	r := resp{Status: res.StatusCode, Header: res.Header, Body: b}
	if cl.want != 0 && r.Status != cl.want {
		t.Fatalf("%s %s: status %d, want %d: %s", req.Method, req.URL.RequestURI(), r.Status, cl.want, clip(b))
	}
	q.c.check(t, op, r)
	if r.Status < 400 && op.media == "application/json" && len(body) > 0 {
		v, err := decodeJSONValue(body)
		if err != nil {
			t.Fatalf("%s: request body is not JSON: %v", op.ID, err)
		}
		ptr := op.ptr + "/requestBody/content/application~1json/schema"
		if err := q.c.validate(t, ptr, v); err != nil {
			t.Fatalf("%s: the request that succeeded does not match the documented request schema: %v\nbody: %s", op.ID, err, body)
		}
	}
	return r
}

// value decodes a JSON response body (numbers as json.Number).
func (r resp) value(t *testing.T) map[string]any {
	t.Helper()
	v, err := decodeJSONValue(r.Body)
	if err != nil {
		t.Fatalf("body is not JSON: %v", err)
	}
	return asMap(v)
}
