package app_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/payoutd/payoutd/app"
	"github.com/payoutd/payoutd/app/apptest"
	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/store/storetest"
)

var writePrevious = flag.String("write-previous-release", "", "write the previous release's mid-pipeline file into this directory")

// TestWritePreviousRelease writes, with this release, the file the next
// release's upgrade test opens: payouts in every state a running server
// leaves them in, backed up while one payout's job runs.
func TestWritePreviousRelease(t *testing.T) {
	if *writePrevious == "" {
		t.Skip("run with -write-previous-release DIR")
	}
	ctx := context.Background()
	dir := t.TempDir()
	c := apptest.Config(t, dir, app.Config{Workers: 2, SandboxUnknownWindow: time.Hour})
	a, err := app.Open(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	var user, vault string
	do := func(a *app.App, fn func(tx *store.Tx) error) {
		t.Helper()
		if err := a.DB.WithTx(ctx, fn, store.WithActor("test", "")); err != nil {
			t.Fatal(err)
		}
	}
	do(a, func(tx *store.Tx) error {
		u, _, err := tx.EnsureUser("upgrade@example.com", false, "Asha Rao", c.Sealer)
		if err != nil {
			return err
		}
		v, err := tx.DefaultVault(u.ID)
		if err != nil {
			return err
		}
		user, vault = u.ID, v.ID
		if _, err := tx.FundVault(u.ID, v.ID, 100_000_00); err != nil {
			return err
		}
		if _, _, err := tx.CreateWebhookEndpoint(store.WebhookEndpoint{UserID: u.ID, URL: "http://127.0.0.1:9/hook"}, c.Sealer); err != nil {
			return err
		}
		_, err = tx.SandboxWalkKYC(u.ID, true, "")
		return err
	})
	initiate := func(a *app.App, amount int64, memo string) store.Payment {
		var p store.Payment
		do(a, func(tx *store.Tx) (err error) {
			p, err = payout.Initiate(tx, rates.Default(), store.Payment{UserID: user, TxnID: store.NewID("txn"), Amount: amount,
				Currency: "USD", DestinationAddress: "GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ",
				CounterpartyCountry: "US", InvoiceRef: memo, CounterpartyName: memo})
			return err
		})
		return p
	}
	confirm := func(a *app.App, p store.Payment) {
		do(a, func(tx *store.Tx) error {
			_, err := payout.Confirm(tx, user, store.ConfirmInput{ID: p.ID, DestinationAddress: p.DestinationAddress,
				Amount: p.Amount, Currency: p.Currency, VaultID: vault, Sealer: c.Sealer})
			return err
		})
	}
	status := func(a *app.App, p store.Payment) string {
		q, err := a.DB.LoadPayment(ctx, p.ID)
		if err != nil {
			t.Fatal(err)
		}
		return q.Status
	}
	// On the instant sandbox rail: completed, unknown (its job snoozed),
	// pending (its job done), in review.
	if err := a.Start(ctx); err != nil {
		t.Fatal(err)
	}
	for _, x := range []struct {
		amount int64
		memo   string
		want   string
	}{
		{100_00, "completed", store.StatusCompleted},
		{101_99, "unknown", store.StatusUnknown},
		{102_42, "pending", store.StatusPending},
		{103_66, "review", store.StatusManualReview},
	} {
		p := initiate(a, x.amount, x.memo)
		confirm(a, p)
		wait.Until(t, 10*time.Second, x.memo, func() bool { return status(a, p) == x.want })
	}
	initiate(a, 104_00, "initiated")
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}

	// On a rail an hour away: one payout's job running, one queued behind
	// it, and the file backed up meanwhile, as if the process died.
	c.Workers, c.RailLatency = 1, time.Hour
	c.Pipeline.Rail = nil
	b, err := app.Open(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Start(ctx); err != nil {
		t.Fatal(err)
	}
	running := initiate(b, 105_00, "running")
	confirm(b, running)
	raw := storetest.New(b.DB)
	wait.Until(t, 10*time.Second, "the job to run", func() bool {
		var n int
		raw.QueryRow(`SELECT count(*) FROM river_job WHERE state = 'running' AND kind = 'payment_advance'`).Scan(&n)
		return n == 1 && status(b, running) == store.StatusProcessing
	})
	confirm(b, initiate(b, 106_00, "queued"))
	dst := *writePrevious
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := storetest.Open(t, c.Path).Exec("VACUUM INTO ?", filepath.Join(dst, "payoutd.db")); err != nil {
		t.Fatal(err)
	}
	key, err := os.ReadFile(filepath.Join(dir, "master.key"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dst, "master.key"), key, 0o600); err != nil {
		t.Fatal(err)
	}
	stop, cancel := context.WithTimeout(ctx, time.Millisecond)
	defer cancel()
	b.Stop(stop)
	b.Close()
}
