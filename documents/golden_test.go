package documents

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/matryer/is"
)

// update rewrites the golden files under testdata/ instead of comparing
// against them, as the standard library's go/printer tests do:
//
//	go test ./documents/ -update
var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// golden compares got with testdata/name, or rewrites that file with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	is := is.New(t)
	path := filepath.Join("testdata", name)
	if *update {
		is.NoErr(os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	is.NoErr(err) // run with -update to create the golden file
	if string(got) != string(want) {
		t.Errorf("%s differs from golden file (run with -update to accept):\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}
