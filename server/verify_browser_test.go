package server_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/store"
)

// TestVerifyPageInBrowser drives the hosted KYC page in real headless
// Chromium through testdata/browser/kyc.mjs (playwright-core): one user from
// /kyc/start's redirectUrl to APPROVED, another to REJECTED and, after
// "Try again", to APPROVED. Screenshots go to $ARTIFACTS_DIR (default
// ./artifacts at the repository root). .ci/browser-deps.sh installs the tools;
// without them the test skips, except under CI=true where it fails.
func TestVerifyPageInBrowser(t *testing.T) {
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	script := filepath.Join("..", "testdata", "browser", "kyc.mjs")
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
	e.URL = verifyServer(t, e, "http")
	rejectKey, rejectID, _ := e.newUser("second@example.com", false, store.AllScopes)
	artifacts := os.Getenv("ARTIFACTS_DIR")
	if artifacts == "" {
		artifacts = filepath.Join("..", "artifacts")
	}
	artifacts, err = filepath.Abs(artifacts)
	is.NoErr(err)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script, e.URL)
	cmd.Env = append(os.Environ(), "PAYOUTD_KEY_APPROVE="+e.Key, "PAYOUTD_KEY_REJECT="+rejectKey,
		"ARTIFACTS_DIR="+artifacts, "CHROMIUM="+chromium)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	t.Logf("kyc.mjs (%s):\n%s", time.Since(start).Round(time.Millisecond), out)
	if err != nil {
		t.Fatalf("browser run failed: %v", err)
	}
	for _, uid := range []string{e.UserID, rejectID} {
		k, err := e.DB.KYCStatus(context.Background(), uid)
		is.NoErr(err)
		is.Equal(k.Status, store.KYCApproved)
	}
	k, err := e.DB.KYCStatus(context.Background(), rejectID)
	is.NoErr(err)
	is.Equal(k.Attempts, 1) // rejected once, resubmitted once
	is.True(exists(filepath.Join(artifacts, "kyc-5-approved.png")))
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
