package main

import (
	"os"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// TestDockerFiles holds the container files to what the README promises:
// the image checks itself with `payoutd health`, documents
// PAYOUTD_BASE_URL, and no node_modules (the test tools install two, under
// testdata/) or database file enters the build context.
func TestDockerFiles(t *testing.T) {
	is := is.New(t)
	df, err := os.ReadFile("Dockerfile")
	is.NoErr(err)
	is.True(strings.Contains(string(df), `HEALTHCHECK`))
	is.True(strings.Contains(string(df), `CMD ["/payoutd", "health"`))
	is.True(strings.Contains(string(df), "PAYOUTD_BASE_URL"))
	ignore, err := os.ReadFile(".dockerignore")
	is.NoErr(err)
	patterns := map[string]bool{}
	for _, l := range strings.Split(string(ignore), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			patterns[l] = true
		}
	}
	// Docker matches a pattern without **/ at the context root only.
	for _, p := range []string{"**/node_modules", "**/*.db", "**/*.masterkey", ".git"} {
		if !patterns[p] {
			t.Errorf(".dockerignore lacks %s", p)
		}
	}
}
