package server_test

import (
	"context"
	"os"
	"os/exec"
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
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	script := filepath.Join("..", "testdata", "browser", "docs.mjs")
	node, err := exec.LookPath("node")
	for what, missing := range map[string]bool{
		"node":   err != nil,
		chromium: !exists(chromium),
		"playwright-core (npm install in testdata/browser)": !exists(filepath.Join("..", "testdata", "browser", "node_modules", "playwright-core", "package.json")),
	} {
		if !missing {
			continue
		}
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing; .ci/browser-deps.sh installs it", what)
		}
		t.Skipf("%s is missing; run .ci/browser-deps.sh to install the browser test's tools", what)
	}
	is := is.New(t)
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	artifacts := os.Getenv("ARTIFACTS_DIR")
	if artifacts == "" {
		artifacts = filepath.Join("..", "artifacts")
	}
	artifacts, err = filepath.Abs(artifacts)
	is.NoErr(err)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script, e.URL)
	cmd.Env = append(os.Environ(), "ARTIFACTS_DIR="+artifacts, "CHROMIUM="+chromium)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	t.Logf("docs.mjs (%s):\n%s", time.Since(start).Round(time.Millisecond), out)
	if err != nil {
		t.Fatalf("browser run failed: %v", err)
	}
	for _, name := range []string{"docs-1-top.png", "docs-2-operation.png", "docs-3-schema.png", "docs-4-narrow.png"} {
		is.True(exists(filepath.Join(artifacts, name)))
	}
}
