package store

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// maxMethods is the most exported methods one exported store type may
// have: past it, a type is a room nobody can see across, and its methods
// belong on an aggregate (aggregates.go).
const maxMethods = 30

// TestAggregatesSmall fails if any exported type of package store has more
// than maxMethods exported methods.
func TestAggregatesSmall(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || !fd.Name.IsExported() {
				continue
			}
			typ := fd.Recv.List[0].Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X
			}
			if id, ok := typ.(*ast.Ident); ok && id.IsExported() {
				counts[id.Name]++
			}
		}
	}
	if counts["DB"] == 0 || counts["Tx"] == 0 {
		t.Fatalf("found no methods of DB or Tx: %v", counts)
	}
	var big []string
	for typ, n := range counts {
		if n > maxMethods {
			big = append(big, typ)
		}
	}
	sort.Strings(big)
	for _, typ := range big {
		t.Errorf("store.%s has %d exported methods, more than %d: move some to an aggregate (aggregates.go) or a new one", typ, counts[typ], maxMethods)
	}
}
