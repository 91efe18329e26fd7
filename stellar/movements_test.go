package stellar_test

import (
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/stellar/go-stellar-sdk/keypair"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/stellar"
	"github.com/payoutd/payoutd/stellar/stellartest"
	"github.com/payoutd/payoutd/store"
)

// deposits lists the vault's deposits, newest first.
func (e *liveEnv) deposits() []store.Movement {
	e.t.Helper()
	list, _, err := e.DB.Vaults().ListDeposits(e.ctx, store.DepositFilter{UserID: e.UserID, Livemode: true, Page: 1, Limit: 100})
	if err != nil {
		e.t.Fatal(err)
	}
	return list
}

// TestLiveDepositWhilePayoutUnknown: a client's deposit to a vault whose
// payout has no known outcome is booked within one sync, with its sender,
// hash and memo, and the payout is not touched.
func TestLiveDepositWhilePayoutUnknown(t *testing.T) {
	is := is.New(t)
	e := newLiveEnvJobs(t, false)
	e.fundVault(100)
	e.Net.Inject(stellartest.Drop) // sent, never applied: no outcome until its time bound
	p, err := e.pay(e.destination(true, true), 10_00, "")
	is.NoErr(err)
	p = e.advance(p.ID)
	p = e.advance(p.ID)
	is.True(p.Status == store.StatusUnknown || p.Status == store.StatusSubmitted)

	client := keypair.MustRandom().Address()
	hash := e.Net.Deposit(client, e.Vault.Address, usdc, 5_0000000, "INV-9")
	is.NoErr(e.Rail.SyncVaults(e.ctx))
	deps := e.deposits()
	is.Equal(len(deps), 2) // the funding mint and the client's deposit
	is.Equal(deps[0].TxHash, hash)
	is.Equal(deps[0].Counterparty, client)
	is.Equal(deps[0].Amount, int64(5_00))
	is.Equal(deps[0].Memo, "INV-9")
	row, ledger, _ := e.balances()
	is.Equal(row, int64(105_00))
	is.Equal(ledger, row)
	is.Equal(e.load(p.ID).Status, p.Status)

	is.NoErr(e.Rail.SyncVaults(e.ctx)) // read again: recorded once
	is.Equal(len(e.deposits()), 2)
	row, _, _ = e.balances()
	is.Equal(row, int64(105_00))
}

// TestLiveNodeBehind: pointed at a node 30 ledgers behind one payoutd has
// read, or at one frozen while the network moves on, payoutd books
// nothing from it, judges no confirm by it, and says the RPC server is
// behind; back on a live node, the deposits it missed are booked once.
func TestLiveNodeBehind(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(n *stellartest.Node)
	}{
		{"Lagging", func(n *stellartest.Node) { n.Lag(30) }},
		{"Frozen", func(n *stellartest.Node) { n.Freeze() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			e := newLiveEnvJobs(t, false)
			node := e.Net.Node()
			e.fundVault(10)
			if tc.name == "Frozen" {
				tc.set(node)
			}
			client := keypair.MustRandom().Address()
			for range 30 {
				e.Net.Advance(5 * time.Second)
			}
			e.Net.Deposit(client, e.Vault.Address, usdc, 40_0000000, "")
			is.NoErr(e.Rail.SyncVaults(e.ctx)) // payoutd reads the live network
			row, _, _ := e.balances()
			is.Equal(row, int64(50_00))
			if tc.name == "Lagging" {
				tc.set(node)
			}
			e.Net.Deposit(client, e.Vault.Address, usdc, 7_0000000, "")

			e.Rail.RPCURL = node.URL
			is.NoErr(e.Rail.SyncVaults(e.ctx))
			row, ledger, _ := e.balances()
			is.Equal(row, int64(50_00)) // nothing booked from a node behind
			is.Equal(ledger, row)
			_, err := e.Rail.CheckConfirm(e.ctx, store.Payment{Currency: "USD", Amount: 50_00, DestinationAddress: e.destination(true, true)}, e.Vault)
			is.Equal(apperr.Code(err), apperr.ErrRailUnavailable) // not judged by it
			h, degraded := e.Rail.Health(e.ctx)
			is.Equal(h.(stellar.Health).Status, "behind")
			is.True(len(degraded) > 0 && strings.Contains(degraded[0], "behind"))

			e.Rail.RPCURL = e.Net.URL
			is.NoErr(e.Rail.SyncVaults(e.ctx))
			row, _, _ = e.balances()
			is.Equal(row, int64(57_00)) // the missed deposit, once
			is.Equal(len(e.deposits()), 3)
		})
	}
}

// TestLiveGapClosedByResync: payoutd is off for longer than the RPC server
// keeps events; a deposit and a transfer out happened meanwhile. The next
// sync shows the gap, books nothing it cannot attribute, and keeps the
// vault's payouts from a release; a resync from an RPC server with the
// history records both, once, and the balance adds up.
func TestLiveGapClosedByResync(t *testing.T) {
	is := is.New(t)
	e := newLiveEnvJobs(t, false)
	e.fundVault(100)
	is.NoErr(e.Rail.SyncVaults(e.ctx))
	gapFrom := int64(e.Rail.Seen()) + 1
	client := keypair.MustRandom().Address()
	dep := e.Net.Deposit(client, e.Vault.Address, usdc, 12_0000000, "INV-3")
	out := e.Net.OutsidePayment(e.Vault.Address, e.destination(true, true), usdc, 2_0000000)
	e.Net.Advance(48 * time.Hour)
	e.Net.Prune()

	is.NoErr(e.Rail.SyncVaults(e.ctx))
	track, err := e.DB.Movements().Track(e.ctx, e.Vault.ID)
	is.NoErr(err)
	is.True(track.Gap())
	is.Equal(track.GapFrom, gapFrom)
	is.Equal(track.MismatchStroops, int64(10_0000000)) // +12 −2, not attributed
	row, _, _ := e.balances()
	is.Equal(row, int64(100_00)) // nothing booked by guess
	err = e.release("looked")
	is.True(err != nil && strings.Contains(err.Error(), "gap")) // quarantined for the unknown sequence number, and not released over a gap

	r := e.Rail
	archive := &stellar.Rail{DB: r.DB, RPCURL: e.Net.Archive(), Passphrase: r.Passphrase, Assets: r.Assets, TxTimeout: r.TxTimeout,
		CallTimeout: r.CallTimeout, Now: r.Now, Log: r.Log}
	res, err := archive.Resync(e.ctx, e.Vault.ID, track.GapFrom)
	is.NoErr(err)
	is.Equal(res.Recorded, 2)
	is.True(!res.Track.Gap())
	is.Equal(res.Track.MismatchStroops, int64(0))
	row, _, _ = e.balances()
	is.Equal(row, int64(112_00)) // the deposit is booked; the transfer out waits for a person
	q, open, err := e.DB.Movements().OpenQuarantine(e.ctx, e.Vault.ID)
	is.NoErr(err)
	is.True(open)
	is.Equal(q.Outside[0].TxHash, out)
	is.Equal(e.deposits()[0].TxHash, dep)

	res, err = archive.Resync(e.ctx, e.Vault.ID, track.GapFrom) // again: nothing new
	is.NoErr(err)
	is.Equal(res.Recorded, 0)
	is.NoErr(e.release("the 2.00 was the owner's"))
	row, _, chain := e.balances()
	is.Equal(row, chain)
}

// TestLiveReleaseRefusedWhenOutsidePaidWaiting: a copy of the database
// served elsewhere (or a restored backup's twin) paid a payout that waits
// here. The release is refused naming the transaction and the resolve to
// run, even with the payouts checked; resolving it paid ties the
// transfer to the payout, the release then goes through, and the network
// paid it once.
func TestLiveReleaseRefusedWhenOutsidePaidWaiting(t *testing.T) {
	is := is.New(t)
	e := newLiveEnvJobs(t, false)
	e.fundVault(100)
	dest := e.destination(true, true)
	twin := e.vaultSeed()
	// The twin pays first, with the payout's memo: here the payout has
	// not been signed yet.
	p, err := e.pay(dest, 10_00, "4242")
	is.NoErr(err)
	memo, err := stellar.Memo(p.Memo, p.MemoType)
	is.NoErr(err)
	env, status := e.outside(twin, e.Net.Sequence(e.Vault.Address)+1, dest, 10_0000000, memo)
	is.Equal(status, "PENDING")
	p = e.advance(p.ID) // the sign's look at the chain finds the twin's transaction
	is.Equal(p.Status, store.StatusProcessing)
	q, open, err := e.DB.Movements().OpenQuarantine(e.ctx, e.Vault.ID)
	is.NoErr(err)
	is.True(open)
	is.Equal(q.Outside[0].TxHash, env.Hash)

	err = e.release("checked the payouts")
	is.True(err != nil)
	is.True(strings.Contains(err.Error(), env.Hash))
	is.True(strings.Contains(err.Error(), "payoutd payouts resolve "+p.ID+" --paid "+env.Hash))

	out, proof, err := e.Rail.ProvePaid(e.ctx, p, env.Hash)
	is.NoErr(err)
	_, err = e.resolve(p.ID, out, proof)
	is.NoErr(err)
	is.NoErr(e.release("the twin paid " + p.ID))
	p = e.advanceFinal(p.ID, 3)
	is.Equal(p.Status, store.StatusCompleted)
	is.Equal(e.Net.Paid("4242"), 1)
	is.NoErr(e.Rail.SyncVaults(e.ctx))
	e.vaultMatchesChain()
}

// TestLiveResolveFailedPaidElsewhere: a payout failed here (its own
// transaction expired) was paid by a transaction of a copy served
// elsewhere. A retry is refused naming that transaction; resolve --paid
// takes the FAILED payout, once none of its own envelopes can apply; it
// completes, paid once.
func TestLiveResolveFailedPaidElsewhere(t *testing.T) {
	is := is.New(t)
	e := newLiveEnvJobs(t, false)
	e.fundVault(100)
	dest := e.destination(true, true)
	e.Net.Inject(stellartest.Drop)
	p, err := e.pay(dest, 10_00, "77")
	is.NoErr(err)
	p = e.advance(p.ID)
	e.Net.Advance(3 * time.Minute) // past the time bound: expired, unpaid
	p = e.advanceFinal(p.ID, 4)
	is.Equal(p.Status, store.StatusFailed)

	memo, _ := stellar.Memo(p.Memo, p.MemoType)
	env, status := e.outside(e.vaultSeed(), e.Net.Sequence(e.Vault.Address)+1, dest, 10_0000000, memo)
	is.Equal(status, "PENDING")
	is.NoErr(e.Rail.SyncVaults(e.ctx))
	err = e.DB.WithTx(e.ctx, func(tx *store.Tx) error {
		_, err := payout.Retry(tx, e.UserID, p.ID)
		return err
	})
	is.True(err != nil && strings.Contains(err.Error(), env.Hash)) // a retry would pay it twice

	_, _, err = e.Rail.ProvePaid(e.ctx, p, "not-a-hash")
	is.True(err != nil && strings.Contains(err.Error(), "not a Stellar transaction hash"))
	out, proof, err := e.Rail.ProvePaid(e.ctx, p, env.Hash)
	is.NoErr(err)
	_, err = e.resolve(p.ID, out, proof)
	is.NoErr(err)
	is.NoErr(e.release("the copy elsewhere paid " + p.ID))
	p = e.advanceFinal(p.ID, 3)
	is.Equal(p.Status, store.StatusCompleted)
	is.Equal(e.Net.Paid("77"), 1)
	is.NoErr(e.Rail.SyncVaults(e.ctx))
	e.vaultMatchesChain()
}
