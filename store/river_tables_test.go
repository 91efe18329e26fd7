package store

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"
)

// riverTable is a name of one of River's tables in SQL text.
var riverTable = regexp.MustCompile(`\briver_(job|leader|queue|client|client_queue|migration|notification)\b`)

// riverTablesCheck is this file: its string literals are the check's own
// examples of what it must find, written to a temporary tree, never SQL
// run on a database.
const riverTablesCheck = "store/river_tables_test.go"

// riverTableSQL lists the string literals of the module's Go files, tests
// included, that name one of River's tables.
func riverTableSQL(t *testing.T, root string) []string {
	t.Helper()
	var bad []string
	goSources(t, root, func(string) bool { return false }, func(rel, path string) error {
		if rel == riverTablesCheck {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && riverTable.MatchString(lit.Value) {
				bad = append(bad, fmt.Sprintf("%s:%d names %s", rel, fset.Position(lit.Pos()).Line, riverTable.FindString(lit.Value)))
			}
			return true
		})
		return nil
	})
	return bad
}

// TestRiverTablesThroughRiver: no SQL of payoutd's own, in its code or its
// tests, names one of River's tables; jobs are found and counted through
// River's client and its driver's executor (river_read.go; in tests
// store/storetest's river.go), so River may change its schema.
func TestRiverTablesThroughRiver(t *testing.T) {
	for _, v := range riverTableSQL(t, "..") {
		t.Error(v + " (use River's client or its driver's executor)")
	}
}

// TestRiverTableSQLFound: the check above finds River's tables in any
// string literal of code and tests, and leaves this file's examples,
// comments and identifiers alone.
func TestRiverTableSQLFound(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"store/jobs.go":       "var q = `SELECT count(*) FROM river_job WHERE kind = ?`",
		"metrics/leader.go":   `var q = "DELETE FROM river_leader"`,
		"app/migrate.go":      `var q = "SELECT version FROM main.river_migration"`,
		"store/x_test.go":     "var q = `SELECT * FROM river_job`",
		riverTablesCheck:      `var q = "DELETE FROM river_leader"`,
		"store/names.go":      `var q = "SELECT river_jobs_total, xriver_job FROM payments"`,
		"testdata/gen/q.go":   `var q = "SELECT * FROM river_queue"`,
		"jobs/notify.go":      `var q = "INSERT INTO river_notification (payload, topic) VALUES (?, ?)"`,
		"store/comment.go":    "// river_job is River's\nvar q = 1",
		"store/identifier.go": "var river_job = 1",
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
	got := riverTableSQL(t, root)
	slices.Sort(got)
	want := []string{"app/migrate.go:2 names river_migration", "jobs/notify.go:2 names river_notification",
		"metrics/leader.go:2 names river_leader", "store/jobs.go:2 names river_job", "store/x_test.go:2 names river_job"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
}
