package store

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/payoutd/payoutd/"

// shutDoor is what only store/ may import: the database's own packages.
// Tests outside store/ reach raw SQL through store/storetest alone, and
// production code not even through that.
var shutDoor = []string{"database/sql", "database/sql/driver", "modernc.org/sqlite", "github.com/riverqueue/river/riverdriver",
	module + "store/internal"}

// doorViolations lists every import through the store's door in the Go
// files under root (a module root) outside root/store.
func doorViolations(t *testing.T, root string) []string {
	t.Helper()
	var bad []string
	goSources(t, root, func(rel string) bool { return rel == "store" }, func(rel, path string) error {
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		isTest := strings.HasSuffix(path, "_test.go")
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			forbidden := slices.ContainsFunc(shutDoor, func(door string) bool { return p == door || strings.HasPrefix(p, door+"/") })
			if forbidden || !isTest && p == module+"store/storetest" {
				bad = append(bad, rel+" imports "+p)
			}
		}
		return nil
	})
	return bad
}

// goSources calls fn with every Go file under root, by its slash path
// relative to root and its path, leaving out testdata, hidden directories
// and the directories skip names.
func goSources(t *testing.T, root string, skip func(rel string) bool, fn func(rel, path string) error) {
	t.Helper()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if skip(rel) || d.Name() == "testdata" || rel != "." && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		return fn(rel, path)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestDoorShut: outside store/, no package reaches the database except
// through store's own functions (tests: and store/storetest).
func TestDoorShut(t *testing.T) {
	for _, v := range doorViolations(t, "..") {
		t.Error(v)
	}
}

// TestDoorViolationsFound: the check above finds each kind of way through
// the door, and lets tests use storetest.
func TestDoorViolationsFound(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"bench/seed.go":         `import "database/sql"`,
		"jobs/client.go":        `import x "github.com/payoutd/payoutd/store/internal/sqlitex"`,
		"server/raw.go":         `import "github.com/payoutd/payoutd/store/storetest"`,
		"server/raw_test.go":    `import "github.com/payoutd/payoutd/store/storetest"`,
		"server/driver_test.go": `import _ "modernc.org/sqlite"`,
		"store/db.go":           `import "database/sql"`,
		"testdata/x.go":         `import "database/sql"`,
	}
	for name, body := range files {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("package x\n"+body+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := doorViolations(t, root)
	slices.Sort(got)
	want := []string{
		"bench/seed.go imports database/sql",
		"jobs/client.go imports github.com/payoutd/payoutd/store/internal/sqlitex",
		"server/driver_test.go imports modernc.org/sqlite",
		"server/raw.go imports github.com/payoutd/payoutd/store/storetest",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}

// riverClientBuilders lists every call that builds a River client —
// river.NewClient or DB.NewRiverClient — in the Go files under root, test
// files included, outside store/db.go and app/ (the one wiring).
func riverClientBuilders(t *testing.T, root string) []string {
	t.Helper()
	var bad []string
	goSources(t, root, func(rel string) bool { return rel == "app" }, func(rel, path string) error {
		if rel == "store/db.go" {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg, _ := sel.X.(*ast.Ident)
			if sel.Sel.Name == "NewRiverClient" || sel.Sel.Name == "NewClient" && pkg != nil && pkg.Name == "river" {
				bad = append(bad, fmt.Sprintf("%s:%d builds a River client", rel, fset.Position(call.Pos()).Line))
			}
			return true
		})
		return nil
	})
	return bad
}

// TestOneWiring: app.Open is the only place a River client is built, so
// no process or test runs with a half-wired database.
func TestOneWiring(t *testing.T) {
	for _, v := range riverClientBuilders(t, "..") {
		t.Error(v + " (use app.Open)")
	}
}

// TestRiverClientBuildersFound: the check above finds a client built
// outside the wiring, in production code and tests alike.
func TestRiverClientBuildersFound(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"jobs/client.go":        "func f() { river.NewClient(nil, nil) }",
		"stellar/x_test.go":     "func f() { db.NewRiverClient(nil) }",
		"app/app.go":            "func f() { db.NewRiverClient(nil) }",
		"store/db.go":           "func f() { river.NewClient(nil, nil) }",
		"server/other.go":       "func f() { api.NewClient(nil) }",
		"testdata/gen/flow.go":  "func f() { river.NewClient(nil, nil) }",
		"stellar/rpc_helper.go": "func f() { rpcclient.NewClient(\"\", nil) }",
	}
	for name, body := range files {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("package x\n"+body+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := riverClientBuilders(t, root)
	slices.Sort(got)
	want := []string{"jobs/client.go:2 builds a River client", "stellar/x_test.go:2 builds a River client"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}
