package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/payoutd/payoutd/openapi"
)

// The contract test (TestContract in contract_flow_test.go) drives every
// operation of openapi/openapi.json against a real payoutd and checks every
// response against the document: the status must be documented, the body
// must validate against the documented schema (JSON Schema 2020-12, formats
// asserted), documented headers must be present and well-formed, and an
// error's code must be one the response lists in x-error-codes. The document
// leaves response objects open for forward compatibility; the test closes
// every object schema (unevaluatedProperties: false), so a field the server
// sends but the document does not describe fails too.

const contractURL = "https://payoutd.test/openapi.json"

// contract is the loaded document, its compiled schemas and the coverage.
type contract struct {
	doc      map[string]any
	ops      map[string]*operation // by operationId
	compiler *jsonschema.Compiler
	mu       sync.Mutex
	schemas  map[string]*jsonschema.Schema
	hits     map[string]map[string]int // operationId → status → count
}

type operation struct {
	ID, Method, Path string
	ptr              string // JSON pointer of the operation object
	raw              map[string]any
	scopes           []string
	idempotent       bool
	media            string // request body media type ("" = none)
}

func (o *operation) responses() map[string]any { return asMap(o.raw["responses"]) }

func asMap(v any) map[string]any { m, _ := v.(map[string]any); return m }
func asArr(v any) []any          { a, _ := v.([]any); return a }
func asStr(v any) string         { s, _ := v.(string); return s }

func ptrEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func loadContract(t *testing.T) *contract {
	t.Helper()
	raw, err := jsonschema.UnmarshalJSON(bytes.NewReader(openapi.Document()))
	if err != nil {
		t.Fatalf("openapi.json: %v", err)
	}
	doc := asMap(raw)
	if doc["openapi"] != "3.1.0" {
		t.Fatalf("openapi.json is %v, want 3.1.0", doc["openapi"])
	}
	c := &contract{doc: doc, ops: map[string]*operation{}, schemas: map[string]*jsonschema.Schema{}, hits: map[string]map[string]int{}}
	for path, item := range asMap(doc["paths"]) {
		for method, v := range asMap(item) {
			o := asMap(v)
			op := &operation{ID: asStr(o["operationId"]), Method: strings.ToUpper(method), Path: path, raw: o,
				ptr: "/paths/" + ptrEscape(path) + "/" + method}
			if op.ID == "" || c.ops[op.ID] != nil {
				t.Fatalf("%s %s: missing or duplicate operationId %q", op.Method, path, op.ID)
			}
			for _, s := range asArr(o["x-scopes"]) {
				op.scopes = append(op.scopes, asStr(s))
			}
			for _, p := range asArr(o["parameters"]) {
				if asStr(c.resolve(asMap(p))["name"]) == "Idempotency-Key" {
					op.idempotent = true
				}
			}
			// The media type requests are built in: JSON, else a form.
			for _, m := range sortedKeys(asMap(asMap(o["requestBody"])["content"])) {
				if op.media == "" || m == "application/json" || m == "application/x-www-form-urlencoded" {
					op.media = m
				}
			}
			c.ops[op.ID] = op
		}
	}
	strict := closeObjects(deepCopy(raw))
	c.compiler = jsonschema.NewCompiler()
	c.compiler.DefaultDraft(jsonschema.Draft2020)
	c.compiler.AssertFormat()
	if err := c.compiler.AddResource(contractURL, strict); err != nil {
		t.Fatalf("openapi.json as a JSON Schema resource: %v", err)
	}
	return c
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		a := make([]any, len(x))
		for i, e := range x {
			a[i] = deepCopy(e)
		}
		return a
	}
	return v
}

// closeObjects adds unevaluatedProperties: false to every object schema with
// properties that does not say what other properties may be, and closes
// every x-extensible-enum to its known values. The document
// uses no allOf, so each such schema describes its whole object.
func closeObjects(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if k == "example" || k == "examples" {
				continue // examples are data, not schemas
			}
			if k == "if" || k == "then" || k == "else" {
				continue // conditions on part of an object (AmountDecimals), not objects of their own
			}
			x[k] = closeObjects(e)
		}
		if known, ok := x["x-extensible-enum"]; ok && x["enum"] == nil {
			x["enum"] = known // clients must take new values; this server may send only the known ones
		}
		if props, ok := x["properties"].(map[string]any); ok && props != nil {
			_, ap := x["additionalProperties"]
			_, up := x["unevaluatedProperties"]
			if !ap && !up {
				x["unevaluatedProperties"] = false
			}
		}
	case []any:
		for i, e := range x {
			x[i] = closeObjects(e)
		}
	}
	return v
}

// resolve follows local $refs (#/components/...).
func (c *contract) resolve(m map[string]any) map[string]any {
	for i := 0; i < 8 && m != nil; i++ {
		ref := asStr(m["$ref"])
		if ref == "" {
			return m
		}
		m = asMap(c.at(strings.TrimPrefix(ref, "#")))
	}
	return m
}

// at is the document value at a JSON pointer.
func (c *contract) at(ptr string) any {
	var cur any = c.doc
	for _, part := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		cur = asMap(cur)[part]
	}
	return cur
}

// schema compiles the schema at a JSON pointer of the document.
func (c *contract) schema(t *testing.T, ptr string) *jsonschema.Schema {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.schemas[ptr]; s != nil {
		return s
	}
	parts := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	s, err := c.compiler.Compile(contractURL + "#/" + strings.Join(parts, "/"))
	if err != nil {
		t.Fatalf("compile schema %s: %v", ptr, err)
	}
	c.schemas[ptr] = s
	return s
}

// validate checks a JSON value (decoded with json.Number) against the
// schema at ptr.
func (c *contract) validate(t *testing.T, ptr string, v any) error {
	t.Helper()
	return c.schema(t, ptr).Validate(v)
}

func decodeJSONValue(b []byte) (any, error) {
	return jsonschema.UnmarshalJSON(bytes.NewReader(b))
}

func (c *contract) hit(op, status string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.hits[op] == nil {
		c.hits[op] = map[string]int{}
	}
	c.hits[op][status]++
}

// responseFor finds the documented response of a status: exact, then a
// range (2XX), then default.
func (o *operation) responseFor(status int) (string, map[string]any) {
	rs := o.responses()
	code := strconv.Itoa(status)
	for _, k := range []string{code, code[:1] + "XX", "default"} {
		if r := asMap(rs[k]); r != nil {
			return k, r
		}
	}
	return "", nil
}

// check validates one response of op against the document.
func (c *contract) check(t *testing.T, op *operation, res resp) {
	t.Helper()
	if err := c.verify(t, op, res); err != nil {
		t.Fatal(err)
	}
}

// verify is check's verdict: nil when the response is one the document
// allows. TestContractValidatorCatches plants wrong responses through it.
func (c *contract) verify(t *testing.T, op *operation, res resp) error {
	t.Helper()
	key, r := op.responseFor(res.Status)
	if r == nil {
		return fmt.Errorf("%s %s: status %d is not documented (documented: %v); body %s", op.Method, op.Path, res.Status,
			sortedKeys(op.responses()), clip(res.Body))
	}
	c.hit(op.ID, key)
	rptr := op.ptr + "/responses/" + key
	if ref := asStr(r["$ref"]); ref != "" {
		rptr = strings.TrimPrefix(ref, "#")
	}
	r = c.resolve(r)
	if err := c.checkHeaders(t, op, res, r); err != nil {
		return err
	}
	content := asMap(r["content"])
	if len(content) == 0 {
		if len(bytes.TrimSpace(res.Body)) > 0 {
			return fmt.Errorf("%s %s %d: documented without a body, got %s", op.Method, op.Path, res.Status, clip(res.Body))
		}
		return nil
	}
	mt, _, err := mime.ParseMediaType(res.Header.Get("Content-Type"))
	if err != nil || content[mt] == nil {
		return fmt.Errorf("%s %s %d: Content-Type %q is not one of the documented %v", op.Method, op.Path, res.Status,
			res.Header.Get("Content-Type"), sortedKeys(content))
	}
	switch {
	case mt == "application/json":
		v, err := decodeJSONValue(res.Body)
		if err != nil {
			return fmt.Errorf("%s %s %d: body is not JSON: %v: %s", op.Method, op.Path, res.Status, err, clip(res.Body))
		}
		if err := c.validate(t, rptr+"/content/application~1json/schema", v); err != nil {
			return fmt.Errorf("%s %s %d: body does not match the documented schema:\n%v\nbody: %s", op.Method, op.Path, res.Status, err, clip(res.Body))
		}
		if err := exactCompanionsAgree(v, "body"); err != nil {
			return fmt.Errorf("%s %s %d: %v", op.Method, op.Path, res.Status, err)
		}
		if codes := asArr(r["x-error-codes"]); len(codes) > 0 {
			code := asStr(asMap(asMap(v)["error"])["code"])
			if !slices.Contains(codes, any(code)) {
				return fmt.Errorf("%s %s %d: error code %s is not in x-error-codes %v", op.Method, op.Path, res.Status, code, codes)
			}
			if id := asStr(asMap(v)["requestId"]); id != res.Header.Get("X-Request-Id") {
				return fmt.Errorf("%s %s %d: requestId %q differs from X-Request-Id %q", op.Method, op.Path, res.Status, id, res.Header.Get("X-Request-Id"))
			}
		}
	case mt == "text/html":
		if !bytes.HasPrefix(bytes.ToLower(bytes.TrimSpace(res.Body)), []byte("<!doctype html")) {
			return fmt.Errorf("%s %s %d: not an HTML document: %s", op.Method, op.Path, res.Status, clip(res.Body))
		}
	case mt == "application/pdf":
		if !bytes.HasPrefix(res.Body, []byte("%PDF-")) {
			return fmt.Errorf("%s %s %d: not a PDF", op.Method, op.Path, res.Status)
		}
	}
	return nil
}

// checkHeaders: required documented headers are present, present ones match
// their schema, and rate-limited operations report their limit.
func (c *contract) checkHeaders(t *testing.T, op *operation, res resp, r map[string]any) error {
	t.Helper()
	hs := asMap(r["headers"])
	for name, raw := range hs {
		h := c.resolve(asMap(raw))
		got := res.Header.Get(name)
		if got == "" {
			if h["required"] == true {
				return fmt.Errorf("%s %s %d: required header %s is missing", op.Method, op.Path, res.Status, name)
			}
			continue
		}
		sch := c.resolve(asMap(h["schema"]))
		var v any = got
		if asStr(sch["type"]) == "integer" {
			n, err := strconv.Atoi(got)
			if err != nil {
				return fmt.Errorf("%s %s %d: header %s=%q is not an integer", op.Method, op.Path, res.Status, name, got)
			}
			v = json.Number(strconv.Itoa(n))
		}
		hptr := headerSchemaPtr(op, res.Status, r, name, raw)
		if err := c.validate(t, hptr, v); err != nil {
			return fmt.Errorf("%s %s %d: header %s=%q: %v", op.Method, op.Path, res.Status, name, got, err)
		}
	}
	if res.Header.Get("X-Request-Id") == "" {
		return fmt.Errorf("%s %s %d: no X-Request-Id", op.Method, op.Path, res.Status)
	}
	rateLimited := hs["RateLimit-Limit"] != nil
	replay := res.Header.Get("Idempotent-Replayed") == "true"
	if rateLimited && res.Status < 300 && !replay && res.Header.Get("RateLimit-Limit") == "" {
		return fmt.Errorf("%s %s %d: a rate-limited operation answered without RateLimit-Limit", op.Method, op.Path, res.Status)
	}
	if res.Header.Get("RateLimit-Limit") != "" && !rateLimited {
		return fmt.Errorf("%s %s %d: RateLimit headers sent but not documented", op.Method, op.Path, res.Status)
	}
	return nil
}

// headerSchemaPtr is the pointer of a response header's schema, through a
// header $ref when there is one.
func headerSchemaPtr(op *operation, status int, r map[string]any, name string, raw any) string {
	if ref := asStr(asMap(raw)["$ref"]); ref != "" {
		return strings.TrimPrefix(ref, "#") + "/schema"
	}
	key, _ := op.responseFor(status)
	base := op.ptr + "/responses/" + key
	if ref := asStr(asMap(op.responses()[key])["$ref"]); ref != "" {
		base = strings.TrimPrefix(ref, "#")
	}
	return base + "/headers/" + ptrEscape(name) + "/schema"
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func clip(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + "…"
	}
	return string(b)
}
