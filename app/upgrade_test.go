package app_test

import (
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/app"
	"github.com/payoutd/payoutd/app/apptest"
	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/store"
)

// TestUpgradeMidPipeline: a file the previous release (River v0.31, schema
// version 10) left behind with payouts in every state a server leaves them
// in, copied while one payout's job was running (as a crash or a backup
// leaves it), is opened by this release: payoutd's migrate brings its own
// schema and River's up to date, check finds nothing owed without a job,
// and once started every payout completes: the queued and the cut-off
// jobs run, the snoozed one comes due, and the ones waiting for a person
// go on once they act.
//
// testdata/previous-release was written by TestWritePreviousRelease (see
// commit 8f36e37) with the previous release's River.
func TestUpgradeMidPipeline(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	dir := t.TempDir()
	unpack(t, filepath.Join("testdata", "previous-release", "payoutd.db.gz"), filepath.Join(dir, "payoutd.db"))
	key, err := os.ReadFile(filepath.Join("testdata", "previous-release", "master.key"))
	is.NoErr(err)
	is.NoErr(os.WriteFile(filepath.Join(dir, "master.key"), key, 0o600))
	c := apptest.Config(t, dir, app.Config{Workers: 4})
	a, err := app.Open(ctx, c)
	is.NoErr(err)
	t.Cleanup(func() { a.Close() })

	u, err := a.DB.People().FindUserByEmail(ctx, "upgrade@example.com", false)
	is.NoErr(err)
	byMemo := func() map[string]store.Payment {
		list, _, err := a.DB.Payments().ListPayments(ctx, store.PaymentFilter{UserID: u.ID, Limit: 100})
		is.NoErr(err)
		out := map[string]store.Payment{}
		for _, p := range list {
			out[p.CounterpartyName] = p
		}
		return out
	}
	before := byMemo()
	status := map[string]string{}
	for memo, p := range before {
		status[memo] = p.Status
	}
	is.Equal(status, map[string]string{"completed": store.StatusCompleted, "unknown": store.StatusUnknown,
		"pending": store.StatusPending, "review": store.StatusManualReview, "initiated": store.StatusInitiated,
		"running": store.StatusProcessing, "queued": store.StatusComplianceCheck})
	stalled, err := a.DB.Payments().StalledPayments(ctx)
	is.NoErr(err)
	is.Equal(len(stalled), 0) // every payout owing a step has its job

	is.NoErr(a.Start(ctx))
	err = a.DB.WithTx(ctx, func(tx *store.Tx) error {
		p := before["initiated"]
		if _, err := payout.Confirm(tx, u.ID, store.ConfirmInput{ID: p.ID, DestinationAddress: p.DestinationAddress,
			Amount: p.Amount, Currency: p.Currency, VaultID: before["completed"].VaultID, Sealer: c.Sealer}); err != nil {
			return err
		}
		if _, err := payout.Retry(tx, u.ID, before["pending"].ID); err != nil {
			return err
		}
		_, err := payout.Review(tx, u.ID, before["review"].ID, true, "")
		return err
	}, store.WithActor("test", ""))
	is.NoErr(err)
	wait.Until(t, 20*time.Second, "every payout to complete", func() bool {
		for _, p := range byMemo() {
			if p.Status != store.StatusCompleted {
				return false
			}
		}
		return true
	})
	problems, err := a.DB.Health().Check(ctx)
	is.NoErr(err)
	is.Equal(problems, nil)
	var jobs []store.PaymentJob
	wait.Until(t, 10*time.Second, "the cut-off job to be recorded completed", func() bool {
		jobs, err = a.DB.Payments().PaymentJobs(ctx, before["running"].ID)
		is.NoErr(err)
		return len(jobs) == 1 && jobs[0].State == "completed"
	})
	is.True(strings.Contains(jobs[0].LastError, "taken over at start")) // the run the crash cut off
}

// unpack writes the gzipped file src to dst.
func unpack(t *testing.T, src, dst string) {
	t.Helper()
	f, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, z); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}
