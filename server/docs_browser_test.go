package server_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/matryer/is"
)

// TestDocsPageInBrowser renders GET /docs in real headless Chromium through
// testdata/browser/docs.mjs (playwright-core): every operation of the
// OpenAPI document is on the page, nothing is loaded from elsewhere, no
// console errors, working skip link and phone layout. Screenshots
// (docs-*.png) go to $ARTIFACTS_DIR (default ./artifacts at the repository
// root). .ci/browser-deps.sh installs the tools; without them the test
// skips, except under CI=true where it fails.
func TestDocsPageInBrowser(t *testing.T) {
	t.Parallel()
	b := needBrowser(t)
	is := is.New(t)
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	b.run(t, "docs.mjs", e.URL, 10*time.Minute)
	for _, name := range []string{"docs-1-top.png", "docs-2-operation.png", "docs-3-schema.png", "docs-4-narrow.png"} {
		is.True(exists(filepath.Join(b.artifacts, name)))
	}
}
