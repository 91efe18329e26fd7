package store

import (
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
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel == "store" || d.Name() == "testdata" || rel != "." && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		isTest := strings.HasSuffix(path, "_test.go")
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			forbidden := slices.ContainsFunc(shutDoor, func(door string) bool { return p == door || strings.HasPrefix(p, door+"/") })
			if forbidden || !isTest && p == module+"store/storetest" {
				bad = append(bad, filepath.ToSlash(rel)+" imports "+p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return bad
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
