package payout_test

import (
	"context"
	"testing"
	"time"

	"github.com/payoutd/payoutd/app"
	"github.com/payoutd/payoutd/app/apptest"
	"github.com/payoutd/payoutd/kyc"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/store/storetest"
)

// testAddress is SEP-23's valid ed25519 public key vector.
const testAddress = "GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ"

// world is a real database opened the way every process opens it, with an
// insert-only River client: jobs are queued as in production, and no
// worker runs them, so each test takes every pipeline step itself.
type world struct {
	t      *testing.T
	ctx    context.Context
	app    *app.App
	sql    *storetest.DB
	sealer *store.Sealer
	// a sandbox and a live user, each with a funded USD vault
	sandbox, live account
	// waiting is a payout a test made meanwhile
	waiting store.Payment
	// transactions is how many the job under test wrote (each WithTx
	// counts once it has answered)
	transactions uint64
}

type account struct {
	userID, vaultID string
	livemode        bool
	balance         int64 // the vault's balance before any payout
}

func newWorld(t *testing.T) *world {
	t.Helper()
	ctx := context.Background()
	a, sealer := apptest.Open(t, app.Config{})
	w := &world{t: t, ctx: ctx, app: a, sql: storetest.New(a.DB), sealer: sealer}
	w.sandbox = w.account("sandbox@example.com", false)
	w.live = w.account("live@example.com", true)
	return w
}

func (w *world) db() *store.DB { return w.app.DB }

// account makes a user (a sandbox one with KYC approved) and puts
// 10,000 USD more in its vault.
func (w *world) account(email string, live bool) account {
	w.t.Helper()
	var a account
	err := w.db().WithTx(w.ctx, func(tx *store.Tx) error {
		u, _, err := tx.People().EnsureUser(email, live, "Asha Rao", w.sealer)
		if err != nil {
			return err
		}
		v, err := tx.Vaults().DefaultVault(u.ID)
		if err != nil {
			return err
		}
		a = account{userID: u.ID, vaultID: v.ID, livemode: live}
		if v, err = tx.Vaults().FundVault(u.ID, v.ID, 10_000_00); err != nil {
			return err
		}
		a.balance = v.Balance
		if !live {
			_, err = kyc.SandboxWalk(tx, u.ID, true, "")
		}
		return err
	}, store.WithActor("test", ""))
	if err != nil {
		w.t.Fatal(err)
	}
	return a
}

// pipeline is the process's pipeline with rail as the sandbox rail and
// live as the live one; the test may tune its copy.
func (w *world) pipeline(rail, live payout.Settlement) *payout.Pipeline {
	pl := *w.app.Pipeline
	pl.Rail, pl.Live = rail, live
	pl.SubmitAttempts, pl.SubmitBackoff = 3, time.Nanosecond
	pl.UnknownPoll, pl.LivePoll, pl.RateRecheck = 11*time.Second, 13*time.Second, 17*time.Second
	pl.LiveRate = nil
	return &pl
}

// payment is a payout to create: amount in US cents, optionally to a
// counterparty country (cross-border); it carries an invoice reference
// (so it reconciles) unless noInvoice.
type payment struct {
	live      bool
	amount    int64
	country   string
	noInvoice bool
}

// make creates the payout and brings it to status through the moves the
// store allows, each in its own transaction as the pipeline would make it.
func (w *world) make(spec payment, status string) store.Payment {
	w.t.Helper()
	acct := w.sandbox
	if spec.live {
		acct = w.live
	}
	invoice := "INV-42"
	if spec.noInvoice {
		invoice = ""
	}
	var p store.Payment
	step := func(fn func(tx *store.Tx) error) {
		w.t.Helper()
		if err := w.db().WithTx(w.ctx, fn, store.WithActor("test", "")); err != nil {
			w.t.Fatalf("bringing a payout to %s: %v", status, err)
		}
	}
	move := func(to string, set func(*store.Payment)) {
		w.t.Helper()
		step(func(tx *store.Tx) error { return tx.Payments().Transition(&p, to, set) })
	}
	step(func(tx *store.Tx) (err error) {
		p, err = payout.Initiate(tx, rates.Default(), store.Payment{UserID: acct.userID, Livemode: acct.livemode, TxnID: store.NewID("txn"),
			Amount: spec.amount, Currency: "USD", DestinationAddress: testAddress, CounterpartyCountry: spec.country, InvoiceRef: invoice})
		return err
	})
	if status == store.StatusInitiated {
		return p
	}
	step(func(tx *store.Tx) (err error) {
		p, err = payout.Confirm(tx, acct.userID, store.ConfirmInput{ID: p.ID, DestinationAddress: testAddress,
			Amount: spec.amount, Currency: "USD", VaultID: acct.vaultID, Sealer: w.sealer})
		return err
	})
	switch status {
	case store.StatusComplianceCheck:
		return p
	case store.StatusManualReview:
		move(store.StatusManualReview, nil)
		return p
	case store.StatusFailed:
		move(store.StatusFailed, func(n *store.Payment) { n.FailedReason = "COMPLIANCE_REJECTED: test" })
		return p
	}
	move(store.StatusProcessing, nil)
	switch status {
	case store.StatusProcessing:
		return p
	case store.StatusPending:
		move(store.StatusPending, nil)
		return p
	}
	move(store.StatusSubmitted, func(n *store.Payment) { n.SettlementRef = "ref-" + p.ID })
	switch status {
	case store.StatusSubmitted:
		return p
	case store.StatusUnknown:
		move(store.StatusUnknown, nil)
		return p
	case confirmedUnvalued:
		step(func(tx *store.Tx) error { return tx.Ledger().SettleAwaitingValue(&p, tx.Now()) })
		return p
	}
	step(func(tx *store.Tx) error { return tx.Ledger().Settle(&p, spec.amount*8325/100, "83.25", tx.Now()) })
	if status == store.StatusConfirmed {
		return p
	}
	move(store.StatusCompleted, nil)
	if status != store.StatusCompleted {
		w.t.Fatalf("no way to make a payout %s", status)
	}
	return p
}

// move moves the payout to status in a transaction of its own, as
// another run or process would.
// exec runs raw SQL on the database (a fault a test injects).
func (w *world) exec(query string) {
	w.t.Helper()
	if _, err := w.sql.Exec(query); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) move(id, status, reason string) {
	w.t.Helper()
	err := w.db().WithTx(w.ctx, func(tx *store.Tx) error {
		p, err := tx.Payments().LoadPayment(id)
		if err != nil {
			return err
		}
		return tx.Payments().Transition(&p, status, func(n *store.Payment) { n.FailedReason = reason })
	}, store.WithActor("test", ""))
	if err != nil {
		w.t.Fatal(err)
	}
}

// confirmedUnvalued is CONFIRMED without an INR value: settled on the
// network while no fresh rate was in hand.
const confirmedUnvalued = "CONFIRMED (unvalued)"

// load reads the payout as stored.
func (w *world) load(id string) store.Payment {
	w.t.Helper()
	p, err := w.db().Payments().LoadPayment(w.ctx, id)
	if err != nil {
		w.t.Fatal(err)
	}
	return p
}

// vault reads an account's vault.
func (w *world) vault(a account) store.Vault {
	w.t.Helper()
	v, err := w.db().Vaults().FindVault(w.ctx, a.userID, a.vaultID)
	if err != nil {
		w.t.Fatal(err)
	}
	return v
}

// jobs counts the payout's queued payment_advance jobs.
func (w *world) jobs(id string) int {
	w.t.Helper()
	return len(storetest.JobsOf(w.t, w.app.River, func(a payout.AdvanceArgs) bool { return a.PaymentID == id }))
}

// actors is who made the pipeline's moves of the payout, in order, from
// its audit rows.
func (w *world) actors(id string) []string {
	w.t.Helper()
	rows, err := w.sql.Query(`SELECT actor FROM audit_log WHERE resource_id = ? AND action LIKE 'payment.%' AND actor LIKE 'system:%' ORDER BY seq`, id)
	if err != nil {
		w.t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var a string
		if err := rows.Scan(&a); err != nil {
			w.t.Fatal(err)
		}
		out = append(out, a)
	}
	return out
}
