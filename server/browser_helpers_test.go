package server_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// browserRun is one script of testdata/browser run with node against
// Debian's Chromium through playwright-core.
type browserRun struct {
	node, chromium, artifacts string
}

// needBrowser finds node, Chromium and playwright-core. Missing tools skip
// the test locally but fail it under CI=true, where .ci/browser-deps.sh
// must have installed them.
func needBrowser(t *testing.T) browserRun {
	t.Helper()
	b := browserRun{chromium: os.Getenv("CHROMIUM")}
	if b.chromium == "" {
		b.chromium = "/usr/bin/chromium"
	}
	node, err := exec.LookPath("node")
	b.node = node
	for what, missing := range map[string]bool{
		"node":     err != nil,
		b.chromium: !exists(b.chromium),
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
	// Screenshots go to $ARTIFACTS_DIR, default ./artifacts at the repository root.
	b.artifacts = os.Getenv("ARTIFACTS_DIR")
	if b.artifacts == "" {
		b.artifacts = filepath.Join("..", "artifacts")
	}
	if b.artifacts, err = filepath.Abs(b.artifacts); err != nil {
		t.Fatal(err)
	}
	return b
}

// run executes testdata/browser/<script> with the base URL and extra env,
// failing the test with the script's output if it fails.
func (b browserRun) run(t *testing.T, script, url string, within time.Duration, env ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	cmd := exec.CommandContext(ctx, b.node, filepath.Join("..", "testdata", "browser", script), url)
	cmd.Env = append(append(os.Environ(), "ARTIFACTS_DIR="+b.artifacts, "CHROMIUM="+b.chromium), env...)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	t.Logf("%s (%s):\n%s", script, time.Since(start).Round(time.Millisecond), out)
	if err != nil {
		t.Fatalf("browser run failed: %v", err)
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
