package bench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/payoutd/payoutd/app"
	"github.com/payoutd/payoutd/app/apptest"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/store"
)

// confirmPayouts confirms n payouts of a bench user, each in its own
// transaction, noting when, as the confirm phase does.
func confirmPayouts(t *testing.T, a *app.App, sealer *store.Sealer, u benchUser, userID string, n int) []confirmedPayout {
	t.Helper()
	ctx := context.Background()
	var out []confirmedPayout
	for i := range n {
		at := time.Now()
		err := a.DB.WithTx(ctx, func(tx *store.Tx) error {
			amount := int64(1000 + i)
			p, err := payout.Initiate(tx, rates.Default(), store.Payment{UserID: userID, TxnID: store.NewID("txn"), Amount: amount, Currency: "USD",
				DestinationAddress: address, CounterpartyCountry: "US", InvoiceRef: "INV-1"})
			if err != nil {
				return err
			}
			p, err = payout.Confirm(tx, userID, store.ConfirmInput{ID: p.ID, DestinationAddress: address, Amount: amount,
				Currency: "USD", VaultID: u.vault, Sealer: sealer})
			out = append(out, confirmedPayout{id: p.ID, at: at})
			return err
		}, store.WithActor("test", ""))
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestMeasurePipeline: the pipeline measure counts exactly the payouts
// the phase confirmed (not others that finished meanwhile), once each,
// with their end-to-end times and queue lag.
func TestMeasurePipeline(t *testing.T) {
	ctx := context.Background()
	// Wired as the bench's target is, with workers that run once started.
	a, sealer := apptest.Open(t, app.Config{Workers: 8})
	users, err := makeUsers(ctx, a.DB, sealer, 1)
	if err != nil {
		t.Fatal(err)
	}
	key, err := a.DB.Keys().FindAPIKeyBySecret(ctx, users[0].key)
	if err != nil {
		t.Fatal(err)
	}
	confirmed := confirmPayouts(t, a, sealer, users[0], key.UserID, 20)
	other := confirmPayouts(t, a, sealer, users[0], key.UserID, 5) // not the phase's
	if err := a.Start(ctx); err != nil {
		t.Fatal(err)
	}
	r, err := measurePipeline(ctx, a.DB, confirmed, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if r.Payouts != len(confirmed) {
		t.Errorf("%d payouts measured, want the phase's %d (and not the %d others)", r.Payouts, len(confirmed), len(other))
	}
	if r.PayoutsPerS <= 0 || r.EndToEndP50 <= 0 || r.EndToEndP50 > r.EndToEndP99 {
		t.Errorf("%g payouts/s, end to end p50 %g ms, p99 %g ms", r.PayoutsPerS, r.EndToEndP50, r.EndToEndP99)
	}
	if r.LagP50MS < 0 || r.LagP50MS > r.LagP99MS {
		t.Errorf("queue lag p50 %g ms, p99 %g ms", r.LagP50MS, r.LagP99MS)
	}
	if r.CommitBatches <= 0 || r.CommitTxns < r.CommitBatches {
		t.Errorf("%d commits carrying %d transactions", r.CommitBatches, r.CommitTxns)
	}
	if open, err := a.DB.Bench().PayoutsInFlight(ctx); err != nil || open != 0 {
		t.Errorf("%d payouts still in flight (%v) after the measure returned", open, err)
	}
}

// TestWaitDrainedGivesUp: with no worker to move them, queued payouts are
// reported as still open once the limit passes, instead of waiting on.
func TestWaitDrainedGivesUp(t *testing.T) {
	ctx := context.Background()
	a, sealer := apptest.Open(t, app.Config{Workers: 8}) // not started: nothing moves
	users, err := makeUsers(ctx, a.DB, sealer, 1)
	if err != nil {
		t.Fatal(err)
	}
	key, err := a.DB.Keys().FindAPIKeyBySecret(ctx, users[0].key)
	if err != nil {
		t.Fatal(err)
	}
	confirmPayouts(t, a, sealer, users[0], key.UserID, 3)
	err = waitDrained(ctx, a.DB, 0, time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), "3 payouts still open") {
		t.Fatalf("waitDrained: %v, want it to report 3 payouts still open", err)
	}
}

// TestMakeUsers: the bench's users can pay at once: an exempt key, KYC
// approved, a vault funded for a long run.
func TestMakeUsers(t *testing.T) {
	ctx := context.Background()
	a, sealer := apptest.Open(t, app.Config{Workers: 8})
	users, err := makeUsers(ctx, a.DB, sealer, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(users) != 3 {
		t.Fatalf("%d users, want 3", len(users))
	}
	for _, u := range users {
		k, err := a.DB.Keys().FindAPIKeyBySecret(ctx, u.key)
		if err != nil || !k.RateExempt {
			t.Fatalf("key %+v (%v): want a rate-exempt key", k, err)
		}
		v, err := a.DB.Vaults().FindVault(ctx, k.UserID, u.vault)
		if err != nil || v.Balance < 1_000_000_000_00 {
			t.Errorf("vault %+v (%v): want at least 1,000,000,000 USD", v, err)
		}
		kyc, err := a.DB.People().KYCStatus(ctx, k.UserID)
		if err != nil || kyc.Status != store.KYCApproved {
			t.Errorf("KYC %s (%v), want APPROVED", kyc.Status, err)
		}
	}
}

// TestMeasureStorage: the storage limit is measured by durable commits to
// a file with the server's own schema and commit path.
func TestMeasureStorage(t *testing.T) {
	schema, err := os.ReadFile(filepath.Join("..", "schema.sql"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "raw.db")
	r, err := measureStorage(context.Background(), path, string(schema), 200*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	if r.CommitsPerS <= 0 || r.RowsPerS <= 0 {
		t.Errorf("%g commits/s, %g rows/s: want both measured", r.CommitsPerS, r.RowsPerS)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		t.Errorf("raw.db: %v, %v: want the rows written to the file", fi, err)
	}
}
