package stellar_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/riverqueue/river/rivertype"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/xdr"

	"github.com/payoutd/payoutd/app"
	"github.com/payoutd/payoutd/app/apptest"
	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/stellar"
	"github.com/payoutd/payoutd/stellar/stellartest"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/store/storetest"
)

const usdcIssuer = "GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5"

var usdc = xdr.MustNewCreditAsset("USDC", usdcIssuer)

// liveEnv is a live payoutd pipeline (real SQLite, real River) whose rail
// talks to a fake Stellar network.
type liveEnv struct {
	t        *testing.T
	App      *app.App
	DB       *store.DB
	SQL      *storetest.DB
	Sealer   *store.Sealer
	Net      *stellartest.Server
	Rail     *stellar.Rail
	Pipeline *payout.Pipeline
	UserID   string
	Vault    store.Vault
	ctx      context.Context

	rateStale    atomic.Bool  // the live rate source has nothing fresh
	staleAnswers atomic.Int64 // how often it said so
}

func newLiveEnv(t *testing.T) *liveEnv { t.Helper(); return newLiveEnvJobs(t, true) }

// newLiveEnvJobs is newLiveEnv whose River client runs jobs only if run;
// without, a test takes each pipeline run itself (advance), or starts the
// workers itself (e.App.Start).
func newLiveEnvJobs(t *testing.T, run bool) *liveEnv {
	t.Helper()
	return newLiveEnvWith(t, run, nil)
}

// newLiveEnvWith is newLiveEnvJobs with the wiring's config changed by tune.
func newLiveEnvWith(t *testing.T, run bool, tune func(*app.Config)) *liveEnv {
	t.Helper()
	ctx := context.Background()
	files := apptest.Config(t, "", app.Config{})
	sealer := files.Sealer
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if os.Getenv("PAYOUTD_TEST_LOG") != "" {
		log = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	fake := stellartest.New(network.TestNetworkPassphrase, time.Now())
	assets, err := stellar.ParseAssets(network.TestNetworkPassphrase, "")
	if err != nil {
		t.Fatal(err)
	}
	table := rates.Default()
	e := &liveEnv{t: t, Sealer: sealer, Net: fake, ctx: ctx}
	rate := func(c string, at time.Time) (money.Rate, time.Time, error) {
		if e.rateStale.Load() {
			e.staleAnswers.Add(1)
			return money.Rate{}, time.Time{}, fmt.Errorf("%s rate as of yesterday: %w", c, rates.ErrStale)
		}
		_, r, err := table.ToINR(1, c)
		return r, at.Add(-time.Hour), err
	}
	live := func(db *store.DB, sealer *store.Sealer) (*stellar.Rail, error) {
		return &stellar.Rail{DB: db, Sealer: sealer, RPCURL: fake.URL, Passphrase: network.TestNetworkPassphrase,
			Assets: assets, TxTimeout: 2 * time.Minute, CallTimeout: 2 * time.Second, Now: fake.Now, Log: log,
			Rate: rate}, nil
	}
	cfg := app.Config{Path: files.Path, Schema: files.Schema, Sealer: sealer, Log: log,
		Workers: 8, Rates: table, Live: live,
		Pipeline: payout.Pipeline{UnknownPoll: 20 * time.Millisecond, LivePoll: 10 * time.Millisecond,
			LiveRate: rate, RateRecheck: 20 * time.Millisecond, SubmitAttempts: 1}}
	if tune != nil {
		tune(&cfg)
	}
	a, err := app.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	db := a.DB
	e.App, e.DB, e.SQL, e.Rail, e.Pipeline = a, db, storetest.New(db), a.Live, a.Pipeline
	if run {
		if err := a.Start(ctx); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		a.Close()
		fake.Close()
	})
	err = db.WithTx(ctx, func(tx *store.Tx) error {
		u, _, err := tx.People().EnsureUser("live@example.com", true, "Asha Rao", sealer)
		if err != nil {
			return err
		}
		e.UserID = u.ID
		e.Vault, err = tx.Vaults().DefaultVault(u.ID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// fundVault gives the vault's account XLM and a USDC trustline holding
// usd dollars, and syncs it into the ledger.
func (e *liveEnv) fundVault(usd int64) {
	e.t.Helper()
	e.Net.Fund(e.Vault.Address, 100_0000000)
	e.Net.Trust(e.Vault.Address, usdc, usd*1_0000000)
	if err := e.Rail.SyncVaults(e.ctx); err != nil {
		e.t.Fatal(err)
	}
}

// destination is a new account on the network, trusting USDC unless not.
func (e *liveEnv) destination(exists, trusts bool) string {
	kp := keypair.MustRandom()
	if exists {
		e.Net.Fund(kp.Address(), 10_0000000)
		if trusts {
			e.Net.Trust(kp.Address(), usdc, 0)
		}
	}
	return kp.Address()
}

// pay initiates and confirms a live payout of cents to dest.
func (e *liveEnv) pay(dest string, cents int64, memo string) (store.Payment, error) {
	var p store.Payment
	err := e.DB.WithTx(e.ctx, func(tx *store.Tx) error {
		var err error
		p, err = payout.Initiate(tx, rates.Default(), store.Payment{UserID: e.UserID, Livemode: true, TxnID: store.NewID("txn"), Amount: cents,
			Currency: "USD", DestinationAddress: dest, Memo: memo})
		if err != nil {
			return err
		}
		p, err = payout.Confirm(tx, e.UserID, store.ConfirmInput{ID: p.ID, DestinationAddress: dest, Amount: cents, Currency: "USD",
			VaultID: e.Vault.ID, Sealer: e.Sealer})
		return err
	})
	return p, err
}

// settle waits until the payout is COMPLETED or FAILED.
func (e *liveEnv) settle(id string) store.Payment {
	e.t.Helper()
	var p store.Payment
	wait.For(e.t, 30*time.Second, func() (err error) {
		if p, err = e.DB.Payments().LoadPayment(e.ctx, id); err != nil {
			e.t.Fatal(err)
		}
		if p.Status != store.StatusCompleted && p.Status != store.StatusFailed {
			return fmt.Errorf("payment %s still %s", id, p.Status)
		}
		return nil
	})
	return p
}

// waitStatus waits until the payout reaches status.
func (e *liveEnv) waitStatus(id, status string) {
	e.t.Helper()
	wait.For(e.t, 30*time.Second, func() error {
		p, err := e.DB.Payments().LoadPayment(e.ctx, id)
		if err != nil {
			e.t.Fatal(err)
		}
		if p.Status != status {
			return fmt.Errorf("payment %s is %s, waited for %s", id, p.Status, status)
		}
		return nil
	})
}

// vaultMatchesChain checks the invariant: the vault row, its ledger
// account and the chain balance are one number.
func (e *liveEnv) vaultMatchesChain() {
	e.t.Helper()
	is := is.New(e.t)
	var balance, reserved, ledger int64
	is.NoErr(e.SQL.QueryRow("SELECT balance, reserved FROM vaults WHERE id = ?", e.Vault.ID).Scan(&balance, &reserved))
	is.NoErr(e.SQL.QueryRow(`SELECT coalesce(sum(p.amount), 0) FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account_id
		WHERE a.kind = 'vault' AND a.ref = ?`, e.Vault.ID).Scan(&ledger))
	chain, _ := e.Net.Balance(e.Vault.Address, usdc)
	is.Equal(balance*100_000, chain) // vault row = chain
	is.Equal(ledger, balance)        // ledger account = vault row
}

func TestLivePayoutSettles(t *testing.T) {
	is := is.New(t)
	e := newLiveEnv(t)
	e.fundVault(1000)
	dest := e.destination(true, true)
	p, err := e.pay(dest, 123_45, "4242")
	is.NoErr(err)
	p = e.settle(p.ID)
	is.Equal(p.Status, store.StatusCompleted)
	is.True(p.AmountINR != nil && *p.AmountINR == 1_027_721) // 123.45 × 83.25, half-up to the paisa
	got, _ := e.Net.Balance(dest, usdc)
	is.Equal(got, int64(123_4500000))
	is.Equal(e.Net.Applied(p.SettlementRef), 1)
	subs, err := e.DB.Chain().PaymentSubmissions(e.ctx, p.ID)
	is.NoErr(err)
	is.Equal(len(subs), 1)
	is.Equal(subs[0].State, store.SubmissionSuccess)
	is.True(subs[0].Ledger > 0)
	is.Equal(subs[0].Fee, int64(100))
	var env xdr.TransactionEnvelope
	is.NoErr(xdr.SafeUnmarshalBase64(subs[0].Envelope, &env))
	is.Equal(uint64(*env.Memo().Id), uint64(4242)) // a numeric memo travels as MEMO_ID
	e.vaultMatchesChain()
}

func TestLiveFaults(t *testing.T) {
	for _, tc := range []struct {
		name   string
		setup  func(e *liveEnv) string // returns the destination
		faults []stellartest.Fault
		status string
		reason string
	}{
		{"TryAgainLater", nil, []stellartest.Fault{stellartest.TryAgainLater, stellartest.TryAgainLater}, store.StatusCompleted, ""},
		{"ReplyLostAfterApplying", nil, []stellartest.Fault{stellartest.LoseReply}, store.StatusCompleted, ""},
		// A full queue's fee refusal says nothing about whether the envelope
		// can still apply: it is resent until the time bound decides.
		{"FeeRefusedWhileBusy", nil, []stellartest.Fault{stellartest.FeeRefused, stellartest.FeeRefused}, store.StatusCompleted, ""},
		{"BadSeq", nil, []stellartest.Fault{stellartest.BadSeq}, store.StatusFailed, "SETTLEMENT_REJECTED: tx_bad_seq"},
		{"NoDestination", func(e *liveEnv) string { return e.destination(false, false) }, nil, store.StatusFailed,
			"SETTLEMENT_REJECTED: op_no_destination (the destination account does not exist on the network)"},
		{"NoTrust", func(e *liveEnv) string { return e.destination(true, false) }, nil, store.StatusFailed,
			"SETTLEMENT_REJECTED: op_no_trust (the destination account has no trustline for the asset)"},
		{"Underfunded", func(e *liveEnv) string {
			// The account is emptied behind payoutd's back after confirm.
			e.Net.Trust(e.Vault.Address, usdc, -999*1_0000000)
			return e.destination(true, true)
		}, nil, store.StatusFailed, "SETTLEMENT_REJECTED: op_underfunded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			e := newLiveEnv(t)
			e.fundVault(1000)
			dest := ""
			if tc.setup != nil {
				dest = tc.setup(e)
			} else {
				dest = e.destination(true, true)
			}
			e.Net.Inject(tc.faults...)
			p, err := e.pay(dest, 50_00, "")
			is.NoErr(err)
			p = e.settle(p.ID)
			is.Equal(p.Status, tc.status)
			is.True(strings.HasPrefix(p.FailedReason, tc.reason))
			is.True(e.Net.Applied(p.SettlementRef) <= 1)
			var reserved int64
			is.NoErr(e.SQL.QueryRow("SELECT reserved FROM vaults WHERE id = ?", e.Vault.ID).Scan(&reserved))
			is.Equal(reserved, int64(0)) // a failed payout releases its funds
			if tc.name != "Underfunded" {
				e.vaultMatchesChain()
			}
		})
	}
}

func TestLiveExpiryThenRetry(t *testing.T) {
	is := is.New(t)
	e := newLiveEnv(t)
	e.fundVault(1000)
	dest := e.destination(true, true)
	e.Net.Inject(stellartest.Drop)
	p, err := e.pay(dest, 10_00, "")
	is.NoErr(err)
	e.waitStatus(p.ID, store.StatusUnknown) // sent, outcome not known
	// Each look at an UNKNOWN payout sends its envelope again: by the
	// third send, the look that made the second has been recorded.
	wait.Until(t, 30*time.Second, "the envelope to be sent a third time", func() bool { return e.Net.Sends() >= 3 })
	p, _ = e.DB.Payments().LoadPayment(e.ctx, p.ID)
	is.Equal(p.Status, store.StatusUnknown) // resent, still not found: stays UNKNOWN
	first := p.SettlementRef

	e.Net.Advance(3 * time.Minute) // the network's clock passes the time bound
	p = e.settle(p.ID)
	is.Equal(p.Status, store.StatusFailed)
	is.True(strings.HasPrefix(p.FailedReason, "SETTLEMENT_EXPIRED"))
	is.Equal(e.Net.Applied(first), 0)

	err = e.DB.WithTx(e.ctx, func(tx *store.Tx) error { _, err := payout.Retry(tx, e.UserID, p.ID); return err })
	is.NoErr(err)
	p = e.settle(p.ID)
	is.Equal(p.Status, store.StatusCompleted)
	is.True(p.SettlementRef != first) // a new envelope, only once the first was provably dead
	is.Equal(e.Net.Applied(p.SettlementRef), 1)
	e.vaultMatchesChain()
}

func TestLiveGarbageIsTransient(t *testing.T) {
	is := is.New(t)
	e := newLiveEnv(t)
	e.fundVault(1000)
	dest := e.destination(true, true)
	e.Net.Garbage(4)
	p, err := e.pay(dest, 7_00, "")
	is.NoErr(err)
	p = e.settle(p.ID)
	is.Equal(p.Status, store.StatusCompleted)
	e.vaultMatchesChain()
}

// TestLiveOneVaultInOrder: twenty payouts confirmed at once from one vault
// account all settle, each applied once, none refused for its sequence
// number.
func TestLiveOneVaultInOrder(t *testing.T) {
	is := is.New(t)
	e := newLiveEnv(t)
	e.fundVault(1000)
	dest := e.destination(true, true)
	var wg sync.WaitGroup
	ids := make([]string, 20)
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := e.pay(dest, int64(100+i), "")
			if err != nil {
				t.Error(err)
				return
			}
			ids[i] = p.ID
		}()
	}
	wg.Wait()
	var total int64
	for i, id := range ids {
		p := e.settle(id)
		is.Equal(p.Status, store.StatusCompleted)
		is.Equal(e.Net.Applied(p.SettlementRef), 1)
		total += int64(100 + i)
	}
	is.Equal(e.Net.AppliedTotal(), 20)
	got, _ := e.Net.Balance(dest, usdc)
	is.Equal(got, total*100_000)
	e.vaultMatchesChain()
}

// TestLiveStaleRateWaits: with no fresh rate the payout still settles on
// chain and is CONFIRMED without an INR value; once a fresh rate arrives
// it is valued (with the rate's as-of time kept) and completes.
func TestLiveStaleRateWaits(t *testing.T) {
	is := is.New(t)
	e := newLiveEnv(t)
	e.fundVault(1000)
	dest := e.destination(true, true)
	e.rateStale.Store(true)
	p, err := e.pay(dest, 20_00, "")
	is.NoErr(err)
	e.waitStatus(p.ID, store.StatusConfirmed)
	// Each look at the CONFIRMED payout asks the rate source once and
	// snoozes on a stale answer: by the second ask since CONFIRMED, one
	// whole look has ended.
	asked := e.staleAnswers.Load()
	wait.Until(t, 30*time.Second, "the rate to be asked again twice", func() bool { return e.staleAnswers.Load() >= asked+2 })
	p, _ = e.DB.Payments().LoadPayment(e.ctx, p.ID)
	is.Equal(p.Status, store.StatusConfirmed) // waits, never valued at a stale rate
	is.True(p.AmountINR == nil)
	is.Equal(e.Net.Applied(p.SettlementRef), 1) // the money moved on chain
	problems, err := e.DB.Health().Check(e.ctx)
	is.NoErr(err)
	is.Equal(len(problems), 0) // a waiting payout is a known state, not a broken ledger

	e.rateStale.Store(false)
	p = e.settle(p.ID)
	is.Equal(p.Status, store.StatusCompleted)
	is.True(p.AmountINR != nil && *p.AmountINR == 166_500) // 20.00 × 83.25
	asOf, ok, err := e.DB.Ledger().RateAsOf(e.ctx, p.ID)
	is.NoErr(err)
	is.True(ok && !asOf.IsZero())
	e.vaultMatchesChain()
}

// TestLiveRefusal: a payout the rail cannot express (here a memo confirm
// would have refused, reaching the pipeline another way) fails without
// anything signed or sent, and releases its funds.
func TestLiveRefusal(t *testing.T) {
	is := is.New(t)
	e := newLiveEnv(t)
	e.fundVault(100)
	p, err := e.pay(e.destination(true, true), 5_00, strings.Repeat("m", 29))
	is.NoErr(err)
	p = e.settle(p.ID)
	is.Equal(p.Status, store.StatusFailed)
	is.True(strings.HasPrefix(p.FailedReason, "SETTLEMENT_REJECTED: memo is 29 bytes"))
	is.Equal(e.Net.Sends(), 0)
	subs, err := e.DB.Chain().PaymentSubmissions(e.ctx, p.ID)
	is.NoErr(err)
	is.Equal(len(subs), 0)
	e.vaultMatchesChain()
}

// TestLiveSyncFollowsChain: money arriving at the vault's account outside
// payoutd is posted to the ledger as funding, dust below a cent left out.
func TestLiveSyncFollowsChain(t *testing.T) {
	is := is.New(t)
	e := newLiveEnv(t)
	e.fundVault(100)
	e.vaultMatchesChain()
	e.Net.Trust(e.Vault.Address, usdc, 25_5500001) // a deposit, with dust below a cent
	is.NoErr(e.Rail.SyncVaults(e.ctx))
	var balance int64
	is.NoErr(e.SQL.QueryRow("SELECT balance FROM vaults WHERE id = ?", e.Vault.ID).Scan(&balance))
	is.Equal(balance, int64(125_55)) // the dust is not counted
}

// advance runs the payout's pipeline once, as its job would, and returns
// where it rests.
func (e *liveEnv) advance(id string) store.Payment {
	e.t.Helper()
	_ = e.Pipeline.Advance(e.ctx, id) // a snooze is an error to River
	p, err := e.DB.Payments().LoadPayment(e.ctx, id)
	if err != nil {
		e.t.Fatal(err)
	}
	return p
}

// TestLiveExpiryNeedsProof: payoutd is off, after sending a payout and
// before recording its outcome, for longer than the RPC server keeps
// transactions. getTransaction's NOT_FOUND then proves nothing: a payout
// whose envelope applied must never read as expired (nothing paid, retry),
// or a retry pays twice; one whose envelope never applied, as the vault
// account's unused sequence number proves, does expire.
func TestLiveExpiryNeedsProof(t *testing.T) {
	for _, tc := range []struct {
		name   string
		fault  stellartest.Fault
		status string
	}{
		{"AppliedReplyLost", stellartest.LoseReply, store.StatusUnknown},
		{"NeverApplied", stellartest.Drop, store.StatusFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			e := newLiveEnvJobs(t, false)
			e.fundVault(1000)
			e.Net.Inject(tc.fault)
			p, err := e.pay(e.destination(true, true), 10_00, "")
			is.NoErr(err)
			p = e.advance(p.ID)
			is.True(p.Status == store.StatusSubmitted || p.Status == store.StatusUnknown) // sent, outcome not known
			first := p.SettlementRef

			e.Net.Advance(48 * time.Hour) // payoutd is off for two days
			e.Net.Prune()
			p = e.advance(p.ID)
			is.Equal(p.Status, tc.status)
			if tc.status == store.StatusFailed {
				is.True(strings.HasPrefix(p.FailedReason, "SETTLEMENT_EXPIRED"))
				is.Equal(e.Net.Applied(first), 0)
				return
			}
			is.Equal(e.Net.Applied(first), 1)
			err = e.DB.WithTx(e.ctx, func(tx *store.Tx) error { _, err := payout.Retry(tx, e.UserID, p.ID); return err })
			is.True(err != nil) // no second envelope while the first may have paid
			var reserved int64
			is.NoErr(e.SQL.QueryRow("SELECT reserved FROM vaults WHERE id = ?", e.Vault.ID).Scan(&reserved))
			is.Equal(reserved, int64(10_00)) // still held for the payout that may have paid
		})
	}
}

// TestLiveConfirmGarbageBalance: an RPC server that reports a balance no
// account can hold is the network misanswering: a live confirm is told the
// rail is unavailable (503), never an internal error, and nothing is posted.
func TestLiveConfirmGarbageBalance(t *testing.T) {
	is := is.New(t)
	e := newLiveEnvJobs(t, false)
	e.fundVault(100)
	e.Net.Trust(e.Vault.Address, usdc, -200*1_0000000) // the server now reports -100 USDC
	_, err := e.Rail.CheckConfirm(e.ctx, store.Payment{Currency: "USD", Amount: 1_00, DestinationAddress: e.destination(true, true)}, e.Vault)
	is.Equal(apperr.Code(err), apperr.ErrRailUnavailable)
	var balance int64
	is.NoErr(e.SQL.QueryRow("SELECT balance FROM vaults WHERE id = ?", e.Vault.ID).Scan(&balance))
	is.Equal(balance, int64(100_00))
}

// TestLivePayoutToOwnVault: a payout to the vault's own account would
// settle on chain without moving anything (Stellar lets an account pay
// itself), so payoutd would book money out, a FIRA and export income for a
// payout that went nowhere. Live confirm refuses it on destinationAddress;
// one that reaches the pipeline another way fails with nothing sent.
func TestLivePayoutToOwnVault(t *testing.T) {
	is := is.New(t)
	e := newLiveEnv(t)
	e.fundVault(100)
	_, err := e.Rail.CheckConfirm(e.ctx, store.Payment{Currency: "USD", Amount: 1_00, DestinationAddress: e.Vault.Address}, e.Vault)
	var se *apperr.Error
	is.True(errors.As(err, &se))
	is.Equal(se.Code, apperr.ErrValidation)
	is.True(se.Fields["destinationAddress"] != "")

	p, err := e.pay(e.Vault.Address, 10_00, "")
	is.NoErr(err)
	p = e.settle(p.ID)
	is.Equal(p.Status, store.StatusFailed)
	is.True(strings.HasPrefix(p.FailedReason, "SETTLEMENT_REJECTED: destinationAddress"))
	is.Equal(e.Net.Sends(), 0)
	e.vaultMatchesChain()
}

// TestLiveNetworkCheckedBeforeUse: serve starts with an RPC server that
// did not answer, so the start-up network check could not run; when the
// URL then answers for another network, the rail reads and signs nothing
// there (that network's balances would be posted to the ledger as
// withdrawals and deposits): live confirms get 503 naming both networks.
func TestLiveNetworkCheckedBeforeUse(t *testing.T) {
	is := is.New(t)
	e := newLiveEnvJobs(t, false)
	e.fundVault(100)
	other := stellartest.New(network.PublicNetworkPassphrase, time.Now())
	defer other.Close()
	rail := &stellar.Rail{DB: e.DB, Sealer: e.Sealer, RPCURL: other.URL, Passphrase: network.TestNetworkPassphrase,
		Assets: e.Rail.Assets, CallTimeout: 2 * time.Second, Now: other.Now, Log: e.Rail.Log, Rate: e.Rail.Rate}

	_, err := rail.CheckConfirm(e.ctx, store.Payment{Currency: "USD", Amount: 1_00, DestinationAddress: e.destination(true, true)}, e.Vault)
	is.Equal(apperr.Code(err), apperr.ErrRailUnavailable)
	is.True(strings.Contains(err.Error(), network.PublicNetworkPassphrase))
	rail.SyncVaults(e.ctx)
	var balance int64
	is.NoErr(e.SQL.QueryRow("SELECT balance FROM vaults WHERE id = ?", e.Vault.ID).Scan(&balance))
	is.Equal(balance, int64(100_00)) // nothing posted from the other network
	h, degraded := rail.Health(e.ctx)
	is.True(len(degraded) > 0) // /readyz says why
	is.True(strings.Contains(h.(stellar.Health).Error, network.PublicNetworkPassphrase))
}

// TestLivePayoutOutlivesRestartWithoutRail: payoutd restarted without
// -stellar-rpc while a live payout is in flight must not drop the payout's
// job: when the rail is back the payout goes on to its end, rather than
// staying SUBMITTED with its funds reserved and its vault blocked forever.
func TestLivePayoutOutlivesRestartWithoutRail(t *testing.T) {
	is := is.New(t)
	e := newLiveEnvJobs(t, false)
	e.fundVault(100)
	p, err := e.pay(e.destination(true, true), 10_00, "")
	is.NoErr(err)
	e.Pipeline.Live = nil // started without -stellar-rpc
	is.NoErr(e.App.Start(e.ctx))
	// The job has run without the rail and been put back to wait for it
	// (River counts each snooze in the job's metadata).
	wait.For(t, 30*time.Second, func() error {
		jobs := storetest.JobsOf(t, e.App.River, func(a payout.AdvanceArgs) bool { return a.PaymentID == p.ID })
		is.Equal(len(jobs), 1)
		var meta struct {
			Snoozes int `json:"snoozes"`
		}
		is.NoErr(json.Unmarshal(jobs[0].Metadata, &meta))
		if st := jobs[0].State; st == rivertype.JobStateCancelled || st == rivertype.JobStateDiscarded || st == rivertype.JobStateCompleted {
			t.Fatalf("the payout's job ended (%s) while the rail was away", st)
		}
		if meta.Snoozes == 0 {
			return fmt.Errorf("the job (%s) has not run yet", jobs[0].State)
		}
		return nil
	})
	// Restarted with the rail. The pipeline is changed only while no
	// worker runs: changing it under running workers is a data race.
	stop, cancel := context.WithTimeout(e.ctx, 10*time.Second)
	defer cancel()
	is.NoErr(e.App.Stop(stop))
	e.Pipeline.Live = e.Rail
	is.NoErr(e.App.Start(e.ctx))
	p = e.settle(p.ID)
	is.Equal(p.Status, store.StatusCompleted)
}
