package server_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// route is one pattern registered on the server's ServeMux, read from the
// source of package server and of the packages it mounts (routeDirs):
// every s.api(…), mux.HandleFunc(…) and mux.Handle(…) call, so a route
// added anywhere in them is seen.
type route struct {
	Method, Path string
	LimitName    string // routeOpts.limitName, for rate-limit overrides
	File         string
}

// routeExclusions are registered patterns that are not API operations.
var routeExclusions = map[string]string{
	"/":                          "catch-all answering unknown paths with the documented 404 error body",
	"/api/":                      "catch-all answering unknown /api paths with the documented 404 error body",
	"/v1/":                       "catch-all answering unknown /v1 paths with the documented 404 error body",
	"GET /verify/assets/<asset>": "the hosted KYC page's own CSS and script files",
	"/console/":                  "the freelancer's console (package console): HTML pages, not API operations",
}

// routeDirs are package server and the packages whose routes it mounts.
var routeDirs = []string{".", "../kycpage"}

func registeredRoutes(t *testing.T) []route {
	t.Helper()
	var files []string
	for _, dir := range routeDirs {
		fs, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fs...)
	}
	var out []route
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatalf("parse %s: %v", f, err)
		}
		inAPI := map[ast.Node]bool{} // the body of func (s *Server) api, which registers its caller's pattern
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "api" && fd.Recv != nil {
				inAPI[fd.Body] = true
			}
		}
		var skip ast.Node
		ast.Inspect(file, func(n ast.Node) bool {
			if inAPI[n] {
				skip = n
			}
			if skip != nil && n != nil && n.Pos() >= skip.Pos() && n.End() <= skip.End() {
				return true
			}
			callExpr, ok := n.(*ast.CallExpr)
			if !ok || len(callExpr.Args) < 2 {
				return true
			}
			sel, ok := callExpr.Fun.(*ast.SelectorExpr)
			if !ok || !slices.Contains([]string{"api", "HandleFunc", "Handle"}, sel.Sel.Name) {
				return true
			}
			pattern, ok := patternOf(callExpr.Args[0])
			if !ok {
				t.Errorf("%s: a route registered with a pattern this test cannot read: %s", fset.Position(callExpr.Pos()), exprText(callExpr.Args[0]))
				return true
			}
			r := route{File: f}
			if m, p, ok := strings.Cut(pattern, " "); ok {
				r.Method, r.Path = m, p
			} else {
				r.Path = pattern
			}
			if sel.Sel.Name == "api" && len(callExpr.Args) >= 3 {
				r.LimitName = limitNameOf(callExpr.Args[1])
			}
			if r.LimitName == "" {
				r.LimitName = pattern
			}
			out = append(out, r)
			return true
		})
	}
	if len(out) < 40 {
		t.Fatalf("found only %d routes in package server; the parser missed the route files", len(out))
	}
	return out
}

// patternOf reads a pattern literal; "GET /x/"+name reads as "GET /x/<name>".
func patternOf(e ast.Expr) (string, bool) {
	switch x := e.(type) {
	case *ast.BasicLit:
		s, err := strconv.Unquote(x.Value)
		return s, err == nil && strings.HasPrefix(strings.TrimLeft(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ "), "/")
	case *ast.BinaryExpr:
		l, ok := patternOf(x.X)
		if !ok {
			return "", false
		}
		if id, ok := x.Y.(*ast.Ident); ok {
			return l + "<" + map[string]string{"name": "asset"}[id.Name] + ">", true
		}
	}
	return "", false
}

func limitNameOf(e ast.Expr) string {
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return ""
	}
	for _, el := range lit.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "limitName" {
			if v, ok := kv.Value.(*ast.BasicLit); ok {
				s, _ := strconv.Unquote(v.Value)
				return s
			}
		}
	}
	return ""
}

func exprText(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.BasicLit:
		return x.Value
	case *ast.BinaryExpr:
		return exprText(x.X) + " " + x.Op.String() + " " + exprText(x.Y)
	case *ast.Ident:
		return x.Name
	}
	return "?"
}

// segmentsMatch: does a registered pattern path serve a documented path?
// A pattern wildcard matches any segment; a literal only itself (a
// documented parameter never matches a pattern literal).
func segmentsMatch(pattern, doc string) bool {
	ps, ds := strings.Split(pattern, "/"), strings.Split(doc, "/")
	if len(ps) != len(ds) {
		return false
	}
	for i := range ps {
		if strings.HasPrefix(ps[i], "{") {
			continue
		}
		if ps[i] != ds[i] {
			return false
		}
	}
	return true
}

// TestContractCoversEveryRoute: every route registered in package server is
// documented, and every documented operation is served by a registered
// route (TestContract then proves each one answers as documented).
func TestContractCoversEveryRoute(t *testing.T) {
	t.Parallel()
	c := loadContract(t)
	routes := registeredRoutes(t)
	var undocumented []string
	excluded := map[string]bool{}
	for _, r := range routes {
		key := strings.TrimSpace(r.Method + " " + r.Path)
		if _, ok := routeExclusions[key]; ok {
			excluded[key] = true
			continue
		}
		found := false
		for _, op := range c.ops {
			if op.Method == r.Method && segmentsMatch(r.Path, op.Path) {
				found = true
				break
			}
		}
		if !found {
			undocumented = append(undocumented, key+" ("+r.File+")")
		}
	}
	for key := range routeExclusions {
		if !excluded[key] {
			t.Errorf("routeExclusions lists %q, which is no longer registered", key)
		}
	}
	t.Logf("%d route registrations in package server, %d documented operations, %d exclusions", len(routes), len(c.ops), len(routeExclusions))
	if len(undocumented) > 0 {
		t.Errorf("routes registered in package server but missing from openapi/openapi.json:\n  %s", strings.Join(undocumented, "\n  "))
	}
	for _, op := range c.ops {
		found := false
		for _, r := range routes {
			if r.Method == op.Method && segmentsMatch(r.Path, op.Path) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("openapi.json documents %s %s (%s), but no route in package server serves it", op.Method, op.Path, op.ID)
		}
	}
}

// TestContractExamples: every example in the document is valid against the
// schema beside it (closed objects, formats asserted), so the reference and
// generated clients show requests and responses that really work; the
// flows (TestContract) send every request example to the server.
func TestContractExamples(t *testing.T) {
	t.Parallel()
	c := loadContract(t)
	n := 0
	var walk func(ptr string, v any)
	walk = func(ptr string, v any) {
		m := asMap(v)
		if m == nil {
			for i, e := range asArr(v) {
				walk(ptr+"/"+strconv.Itoa(i), e)
			}
			return
		}
		if ex, ok := m["example"]; ok && m["schema"] != nil {
			n++
			if err := c.validate(t, ptr+"/schema", ex); err != nil {
				t.Errorf("example at %s does not match its schema: %v", ptr, err)
			}
		}
		// A schema's own examples are what generators send as positive
		// data: each must be valid, and a date or time not in the future,
		// where a payment date or a period end would be refused.
		if exs, ok := m["examples"].([]any); ok && (m["type"] != nil || m["$ref"] != nil) {
			for i, ex := range exs {
				n++
				if err := c.validate(t, ptr, ex); err != nil {
					t.Errorf("examples[%d] of %s does not match the schema: %v", i, ptr, err)
				}
				if s, ok := ex.(string); ok && (asStr(m["format"]) == "date" || asStr(m["format"]) == "date-time") && s > time.Now().UTC().Format(time.RFC3339) {
					t.Errorf("examples[%d] of %s (%s) lies in the future, which requests refuse", i, ptr, s)
				}
			}
		}
		for k, e := range m {
			if k == "example" || k == "examples" {
				continue
			}
			walk(ptr+"/"+ptrEscape(k), e)
		}
	}
	walk("", c.doc)
	if n < 150 {
		t.Fatalf("checked only %d examples", n)
	}
	for _, op := range c.ops {
		if op.media != "" && asMap(asMap(asMap(op.raw["requestBody"])["content"])[op.media])["example"] == nil {
			t.Errorf("%s: request body without an example", op.ID)
		}
		hasOK := false
		for status, r := range op.responses() {
			r := c.resolve(asMap(r))
			for _, mt := range asMap(r["content"]) {
				if status[0] == '2' && asMap(mt)["example"] != nil {
					hasOK = true
				}
			}
		}
		if !hasOK && op.ID != "getFiraPdf" && op.ID != "exportFiraPdfs" && op.ID != "getInvoicePdf" && !strings.Contains(op.Path, "/verify/") && op.ID != "getApiReference" && op.ID != "deleteWebhook" {
			t.Errorf("%s: no example of its success response", op.ID)
		}
	}
	t.Logf("%d examples valid", n)
}
