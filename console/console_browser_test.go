package console_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/internal/mailtest"
	"github.com/payoutd/payoutd/internal/wait"
)

// TestConsoleInBrowser drives the console in real headless Chromium through
// testdata/browser/console.mjs (playwright-core): a fresh link signs in,
// Home, a payout made through the form and confirmed, COMPLETED, its FIRA
// PDF downloaded, a webhook endpoint and an API key added, a challan
// recorded (after a refused one) and delivered to the endpoint, a Not
// found page, a forged POST refused, sign-out, a used and an expired link
// refused, and a second user who sees none of it; axe-core checks every
// page for serious or critical violations and each page is screenshotted at
// 1280 and 375 px into $ARTIFACTS_DIR/console (default ./artifacts/console
// at the repository root, which git ignores). .ci/browser-deps.sh installs
// the tools; without them the test skips, except under CI=true. The script
// waits on what it needs to see, within generous bounds, so a loaded
// machine makes it slower, not flaky; the context's bound only stops a
// hung browser.
func TestConsoleInBrowser(t *testing.T) {
	t.Parallel()
	node, chromium := needChromium(t)
	is := is.New(t)
	mail := mailtest.StartOpen(t)
	p, dir, key := consoleServer(t, "-smtp-url", "smtp://"+mail.Addr, "-smtp-from", "payoutd <payoutd@example.in>")
	status, _ := post(t, p.URL+"/api/v1/sandbox/kyc/approve", key, nil)
	is.Equal(status, 200)
	fresh := cli(t, dir, "console-link", "--email", "demo@payoutd.local", "--base-url", p.URL)
	expired := expiredLink(t, dir, p.URL, "demo@payoutd.local")
	cli(t, dir, "keys", "create", "--email", "other@example.com", "--name", "Other Freelancer")
	other := cli(t, dir, "console-link", "--email", "other@example.com", "--base-url", p.URL)

	artifacts := os.Getenv("ARTIFACTS_DIR")
	if artifacts == "" {
		artifacts = filepath.Join("..", "artifacts")
	}
	artifacts, err := filepath.Abs(filepath.Join(artifacts, "console"))
	is.NoErr(err)
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join("..", "testdata", "browser", "console.mjs"), p.URL)
	cmd.Env = append(os.Environ(), "ARTIFACTS_DIR="+artifacts, "CHROMIUM="+chromium,
		"CONSOLE_LINK="+fresh, "CONSOLE_LINK_EXPIRED="+expired, "CONSOLE_LINK_OTHER="+other)
	began := time.Now()
	out, err := cmd.CombinedOutput()
	t.Logf("console.mjs (%s), screenshots in %s:\n%s", time.Since(began).Round(time.Millisecond), artifacts, out)
	if err != nil {
		t.Fatalf("browser run failed: %v", err)
	}

	// What the browser did is what the API sees.
	var res struct{ Payout, FIRA string }
	for _, line := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(line, "result "); ok {
			is.NoErr(json.Unmarshal([]byte(rest), &res))
		}
	}
	_, body := get(t, p.URL+"/api/v1/payments/payouts/"+res.Payout, key)
	is.True(strings.Contains(string(body), `"status":"COMPLETED"`))
	status, _ = get(t, p.URL+"/api/v1/compliance/fira/"+res.FIRA, key)
	is.Equal(status, 200)
	_, body = get(t, p.URL+"/api/v1/tax/payments", key)
	is.True(strings.Contains(string(body), `"challanSerial":"00017"`))
	is.True(!strings.Contains(string(body), `"challanSerial":"00018"`)) // the forged POST did nothing
	_, body = get(t, p.URL+"/api/v1/compliance/audit?resourceId="+res.Payout, key)
	is.True(strings.Contains(string(body), `"actor":"console:csn_`))
	// The completed payout's notice, seen in the console, is one e-mail.
	subject := "[sandbox] Payout of USD 250.00 completed"
	wait.Until(t, 30*time.Second, "the completed payout's e-mail", func() bool {
		for _, m := range mail.Messages() {
			if m.Header.Get("Subject") == subject {
				return true
			}
		}
		return false
	})
	n := 0
	for _, m := range mail.Messages() {
		if m.Header.Get("Subject") == subject {
			n++
			is.Equal(m.To, []string{"demo@payoutd.local"})
			is.True(strings.Contains(m.Body, p.URL+"/console/payouts/"+res.Payout))
		}
	}
	is.Equal(n, 1)
	for _, shot := range []string{"home", "payout", "tax", "settings", "webhook", "not-found", "notices", "confirm-revoke", "vault", "invoices"} {
		for _, w := range []string{"1280", "375"} {
			_, err := os.Stat(filepath.Join(artifacts, "console-"+shot+"-"+w+".png"))
			is.NoErr(err)
		}
	}
}

// needChromium finds node, Chromium, playwright-core and axe-core. Missing
// tools skip the test locally but fail it under CI=true, where
// .ci/browser-deps.sh must have installed them.
func needChromium(t *testing.T) (node, chromium string) {
	t.Helper()
	chromium = os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	node, err := exec.LookPath("node")
	missing := map[string]bool{
		"node":       err != nil,
		chromium:     !fileExists(chromium),
		"axe-core":   !fileExists(filepath.Join("..", "testdata", "browser", "node_modules", "axe-core", "axe.min.js")),
		"playwright": !fileExists(filepath.Join("..", "testdata", "browser", "node_modules", "playwright-core", "package.json")),
	}
	for what, gone := range missing {
		if !gone {
			continue
		}
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is missing; .ci/browser-deps.sh installs it", what)
		}
		t.Skipf("%s is missing; run .ci/browser-deps.sh to install the browser test's tools", what)
	}
	return node, chromium
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
