package app_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/app"
	"github.com/payoutd/payoutd/app/apptest"
	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/kyc"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/store/storetest"
)

// TestInsertWakesFetch: a job this process inserts is fetched at once,
// woken by River's notification, not found by the next poll: with polls an
// hour apart, confirmed payouts still complete.
func TestInsertWakesFetch(t *testing.T) {
	is := is.New(t)
	a, user, vault, sealer := payingApp(t, app.Config{Workers: 1, FetchPoll: time.Hour})
	for range 3 {
		p := initiate(t, a, user)
		is.Equal(confirmAndWait(t, a, p, user, vault, sealer).Status, store.StatusCompleted)
	}
}

// TestPipelineStatements counts what one payout costs the single writer,
// from the confirm that queues its job to River's record of the job done:
// the statements it runs for this payout alone, the confirm's (made as the
// API makes it, reading the payment and the vault on a read connection
// first) and the pipeline's (a drain's share). Those a group commit runs
// once for all the transactions it carries (BEGIN, the change counter,
// the batch's audit rows, events, notices, counts and account balances,
// COMMIT) and River's fetches (one per poll, for any number of jobs) are
// left out: under load they are shared by many payouts. The job is
// completed inside the transaction that completes the payout, so River's
// completer adds no transaction of its own.
func TestPipelineStatements(t *testing.T) {
	is := is.New(t)
	a, user, vault, sealer := payingApp(t, app.Config{Workers: 1})
	confirmAndWait(t, a, initiate(t, a, user), user, vault, sealer) // River's start-up statements come and go
	p := initiate(t, a, user)
	var mu sync.Mutex
	var trace []string
	storetest.TraceWrites(t, a.DB, func(q string) {
		mu.Lock()
		defer mu.Unlock()
		trace = append(trace, firstLine(q))
	})
	confirmAndWait(t, a, p, user, vault, sealer)
	mu.Lock()
	defer mu.Unlock()
	var confirm, pipeline []string
	own := &confirm
	for _, q := range trace {
		if q == "COMMIT" && len(confirm) > 0 {
			own = &pipeline // the confirm's transaction has committed
		}
		if !sharedStatement(q) {
			*own = append(*own, q)
		}
	}
	t.Logf("%d statements; the confirm's own %d:\n%s\nthe pipeline's own %d:\n%s", len(trace),
		len(confirm), strings.Join(confirm, "\n"), len(pipeline), strings.Join(pipeline, "\n"))
	// The confirm: the vault's reservation, the payment's move and its job
	// (the KYC status is remembered).
	is.True(len(confirm) <= 3)
	// The pipeline: the payment's four moves as one UPDATE, the vault, the
	// ledger entry and its postings, the reconciliation, the rate history,
	// the GST value, the tax and GST days, the deposits memo match, the
	// FIRA, the tax figures' stamp and River's completion.
	is.True(len(pipeline) <= 13)
	// River's completion is the job's transaction's own statement: its
	// completer ran no transaction after it.
	completions, inJobTx := 0, false
	for _, q := range trace {
		switch {
		case strings.HasPrefix(q, "UPDATE vaults SET balance"): // the settlement
			inJobTx = true
		case q == "COMMIT" || q == "BEGIN":
			inJobTx = false
		case q == "-- name: JobSetStateIfRunning :one":
			completions++
			is.True(inJobTx)
		}
	}
	is.Equal(completions, 1)
}

// sharedStatement reports a statement a group commit or a River fetch runs
// once for many payouts, or River's upkeep that runs whatever the payouts.
func sharedStatement(q string) bool {
	switch q {
	case "-- name: JobInsertFastMany :many", "-- name: NotificationInsertMany :exec", "-- name: JobSetStateIfRunning :one":
		return false
	}
	if strings.HasPrefix(q, "-- name: ") {
		return true
	}
	for _, p := range []string{"BEGIN", "COMMIT", "PRAGMA data_version", "-- name: JobGetAvailable", "INSERT INTO audit_log",
		"INSERT INTO events", "INSERT INTO notices", "INSERT INTO payment_counts", "INSERT INTO row_counts", "UPDATE ledger_accounts SET balance"} {
		if strings.HasPrefix(q, p) {
			return true
		}
	}
	return false
}

func firstLine(q string) string {
	q = strings.TrimSpace(q)
	if i := strings.IndexByte(q, '\n'); i >= 0 {
		q = q[:i]
	}
	return q
}

// payingApp is a started app with a sandbox user, KYC approved, whose
// funded vault pays.
func payingApp(t *testing.T, c app.Config) (a *app.App, user, vault string, sealer *store.Sealer) {
	t.Helper()
	ctx := context.Background()
	a, sealer = apptest.Open(t, c)
	err := a.DB.WithTx(ctx, func(tx *store.Tx) error {
		u, _, err := tx.People().EnsureUser("pays@example.com", false, "Asha Rao", sealer)
		if err != nil {
			return err
		}
		v, err := tx.Vaults().DefaultVault(u.ID)
		if err != nil {
			return err
		}
		user, vault = u.ID, v.ID
		if _, err := tx.Vaults().FundVault(u.ID, v.ID, 100_000_00); err != nil {
			return err
		}
		_, err = kyc.SandboxWalk(tx, u.ID, true, "")
		return err
	}, store.WithActor("test", ""))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Start(ctx); err != nil {
		t.Fatal(err)
	}
	return a, user, vault, sealer
}

// initiate makes a USD 100 cross-border payout of user's.
func initiate(t *testing.T, a *app.App, user string) store.Payment {
	t.Helper()
	var p store.Payment
	err := a.DB.WithTx(context.Background(), func(tx *store.Tx) (err error) {
		p, err = payout.Initiate(tx, rates.Default(), store.Payment{UserID: user, TxnID: store.NewID("txn"), Amount: 100_00,
			Currency: "USD", DestinationAddress: "GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ",
			CounterpartyCountry: "US", InvoiceRef: "INV-1"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// confirmAndWait confirms p from vault, as the API does, and returns it once River has
// recorded its job done.
func confirmAndWait(t *testing.T, a *app.App, p store.Payment, user, vault string, sealer *store.Sealer) store.Payment {
	t.Helper()
	ctx := context.Background()
	in, err := payout.PrepareConfirm(ctx, a.DB, nil, false, user, store.ConfirmInput{ID: p.ID,
		DestinationAddress: p.DestinationAddress, Amount: p.Amount, Currency: p.Currency, VaultID: vault, Sealer: sealer})
	if err != nil {
		t.Fatal(err)
	}
	err = a.DB.WithTx(ctx, func(tx *store.Tx) error {
		_, err := payout.Confirm(tx, user, in)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	wait.For(t, 10*time.Second, func() error {
		jobs, err := a.DB.Payments().PaymentJobs(ctx, p.ID)
		if err != nil || len(jobs) != 1 || jobs[0].State != "completed" {
			return fmt.Errorf("the payout's job: %v %+v", err, jobs)
		}
		return nil
	})
	q, err := a.DB.Payments().LoadPayment(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	return q
}
