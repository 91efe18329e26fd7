package server_test

import (
	"context"
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
	t.Parallel()
	b := needBrowser(t)
	is := is.New(t)
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	e.URL = verifyServer(t, e, "http")
	rejectKey, rejectID, _ := e.newUser("second@example.com", false, store.AllScopes)
	b.run(t, "kyc.mjs", e.URL, 10*time.Minute, "PAYOUTD_KEY_APPROVE="+e.Key, "PAYOUTD_KEY_REJECT="+rejectKey)
	for _, uid := range []string{e.UserID, rejectID} {
		k, err := e.DB.People().KYCStatus(context.Background(), uid)
		is.NoErr(err)
		is.Equal(k.Status, store.KYCApproved)
	}
	k, err := e.DB.People().KYCStatus(context.Background(), rejectID)
	is.NoErr(err)
	is.Equal(k.Attempts, 1) // rejected once, resubmitted once
	is.True(exists(filepath.Join(b.artifacts, "kyc-5-approved.png")))
}
