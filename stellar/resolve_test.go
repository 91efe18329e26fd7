package stellar_test

import (
	"crypto/rand"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/txnbuild"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/stellar"
	"github.com/payoutd/payoutd/stellar/stellartest"
	"github.com/payoutd/payoutd/store"
)

// appliedUnknown is a payout of 10.00 USD with memo INV-9 whose
// transaction applied, but payoutd was off, after sending it and before
// hearing back, for longer than the RPC server keeps transactions: it is
// UNKNOWN and no automatic step can prove either way.
func appliedUnknown(t *testing.T, e *liveEnv, dest string) store.Payment {
	t.Helper()
	is := is.New(t)
	e.Net.Inject(stellartest.LoseReply)
	p, err := e.pay(dest, 10_00, "INV-9")
	is.NoErr(err)
	p = e.advance(p.ID)
	is.Equal(p.Status, store.StatusSubmitted) // sent, the reply lost
	e.Net.Advance(48 * time.Hour)
	e.Net.Prune()
	p = e.advance(p.ID)
	is.Equal(p.Status, store.StatusUnknown)
	is.Equal(e.Net.Applied(p.SettlementRef), 1)
	return p
}

// archiveRail is the rail asking an RPC server that keeps every
// transaction, as an operator does with a provider with full history.
func (e *liveEnv) archiveRail() *stellar.Rail {
	return &stellar.Rail{DB: e.DB, RPCURL: e.Net.Archive(), Passphrase: network.TestNetworkPassphrase, Assets: e.Rail.Assets,
		CallTimeout: 2 * time.Second, Now: e.Net.Now, Log: e.Rail.Log, Rate: e.Rail.Rate}
}

// TestResolvePaid: an operator settles an UNKNOWN payout with the hash of
// the transaction that paid it, and only that one: a hash the network does
// not know, a transaction that failed, or one that pays another amount,
// destination or memo, or from another account, is refused and nothing is
// recorded.
func TestResolvePaid(t *testing.T) {
	e := newLiveEnvJobs(t, false)
	e.fundVault(1000)
	dest := e.destination(true, true)
	p := appliedUnknown(t, e, dest)
	seed := e.vaultSeed()
	next := func() int64 { return e.Net.Sequence(e.Vault.Address) + 1 }
	strangerSeed := make([]byte, 32)
	rand.Read(strangerSeed)
	stranger := keypair.MustParseFull(mustSeed(strangerSeed))
	e.Net.Fund(stranger.Address(), 100_0000000)
	e.Net.Trust(stranger.Address(), usdc, 100_0000000)
	archive := e.archiveRail()

	for _, tc := range []struct {
		name string
		rail *stellar.Rail
		hash func() string
		why  string
	}{
		{"ErrHistoryGone", e.Rail, func() string { return p.SettlementRef }, "is not on the network as far as this RPC server knows"},
		{"ErrUnknownHash", archive, func() string { return strings.Repeat("ab", 32) }, "is not on the network"},
		{"ErrFailed", archive, func() string {
			env, _ := e.outside(seed, next(), e.destination(true, false), 10_0000000, txnbuild.MemoText("INV-9"))
			return env.Hash
		}, "failed"},
		{"ErrAmount", archive, func() string {
			env, _ := e.outside(seed, next(), dest, 9_9900000, txnbuild.MemoText("INV-9"))
			return env.Hash
		}, "it pays 9.9900000 USDC, the payout is 10.0000000"},
		{"ErrDestination", archive, func() string {
			env, _ := e.outside(seed, next(), e.destination(true, true), 10_0000000, txnbuild.MemoText("INV-9"))
			return env.Hash
		}, "not the payout's destination"},
		{"ErrMemo", archive, func() string {
			env, _ := e.outside(seed, next(), dest, 10_0000000, txnbuild.MemoText("INV-8"))
			return env.Hash
		}, `its memo is text "INV-8", the payout's is text "INV-9"`},
		{"ErrNoMemo", archive, func() string {
			env, _ := e.outside(seed, next(), dest, 10_0000000, nil)
			return env.Hash
		}, `its memo is none`},
		{"ErrOtherAccount", archive, func() string {
			env, _ := e.outside(strangerSeed, e.Net.Sequence(stranger.Address())+1, dest, 10_0000000, txnbuild.MemoText("INV-9"))
			return env.Hash
		}, "not the vault's account"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			_, _, err := tc.rail.ProvePaid(e.ctx, p, tc.hash())
			is.True(err != nil)
			is.True(strings.Contains(err.Error(), tc.why))
			is.Equal(e.load(p.ID).Status, store.StatusUnknown)
		})
	}
	t.Run("OK", func(t *testing.T) {
		is := is.New(t)
		out, proof, err := archive.ProvePaid(e.ctx, p, p.SettlementRef)
		is.NoErr(err)
		is.True(strings.Contains(proof, "applied in ledger"))
		got, err := e.resolve(p.ID, out, proof)
		is.NoErr(err)
		is.Equal(got.Status, store.StatusConfirmed)
		p = e.advance(p.ID) // the job it queued books and completes it
		is.Equal(p.Status, store.StatusCompleted)
		is.Equal(p.Reserved, int64(0))
		subs, err := e.DB.Chain().PaymentSubmissions(e.ctx, p.ID)
		is.NoErr(err)
		is.Equal(len(subs), 1)
		is.Equal(subs[0].State, store.SubmissionSuccess)
		is.Equal(e.Net.Applied(p.SettlementRef), 1) // nothing sent again
		is.Equal(e.auditActors(p.ID, "payment.resolved"), []string{"operator:test"})
		is.Equal(e.auditActors(p.ID, "payment.confirmed"), []string{"operator:test"})
		_, _, err = archive.ProvePaid(e.ctx, p, p.SettlementRef)
		is.True(strings.Contains(err.Error(), "already recorded as paying this payout"))
		_, err = e.resolve(p.ID, out, proof)
		is.Equal(apperr.Code(err), apperr.ErrInvalidState) // a settled payout is not resolved twice
	})
}

// TestResolveUnpaid: an operator fails an UNKNOWN payout as unpaid only
// with proof that its transaction can never apply; a payout that may have
// paid stays UNKNOWN with its funds held.
func TestResolveUnpaid(t *testing.T) {
	t.Run("ErrMayHaveApplied", func(t *testing.T) {
		is := is.New(t)
		e := newLiveEnvJobs(t, false)
		e.fundVault(1000)
		p := appliedUnknown(t, e, e.destination(true, true))
		_, _, err := e.Rail.ProveUnpaid(e.ctx, p)
		is.True(err != nil)
		is.True(strings.Contains(err.Error(), "it may have applied in a ledger this server no longer keeps"))
		_, _, err = e.archiveRail().ProveUnpaid(e.ctx, p)
		is.True(err != nil)
		is.True(strings.Contains(err.Error(), "applied in ledger")) // and it did
		is.Equal(e.load(p.ID).Reserved, int64(10_00))
	})
	t.Run("ErrBeforeTimeBound", func(t *testing.T) {
		is := is.New(t)
		e := newLiveEnvJobs(t, false)
		e.fundVault(1000)
		e.Net.Inject(stellartest.Drop)
		p, err := e.pay(e.destination(true, true), 10_00, "")
		is.NoErr(err)
		p = e.advance(p.ID)
		is.Equal(p.Status, store.StatusUnknown)
		_, _, err = e.Rail.ProveUnpaid(e.ctx, p)
		is.True(err != nil)
		is.True(strings.Contains(err.Error(), "may still apply until its time bound"))
	})
	for _, tc := range []struct {
		name  string
		setup func(e *liveEnv)
		proof string
	}{
		{"OKSequenceBelow", nil, "sequence number"},
		// Another wallet used the number: only the RPC server's history,
		// which reaches back before the signing, proves it never applied.
		{"OKHistoryCovers", func(e *liveEnv) { e.Net.BumpSequence(e.Vault.Address) }, "history reaches back"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			e := newLiveEnvJobs(t, false)
			e.fundVault(1000)
			e.Net.Inject(stellartest.Drop)
			p, err := e.pay(e.destination(true, true), 10_00, "")
			is.NoErr(err)
			p = e.advance(p.ID)
			is.Equal(p.Status, store.StatusUnknown)
			if tc.setup != nil {
				tc.setup(e)
			}
			e.Net.Advance(3 * time.Minute) // past its time bound
			out, proof, err := e.Rail.ProveUnpaid(e.ctx, p)
			is.NoErr(err)
			is.True(strings.Contains(proof, tc.proof))
			p, err = e.resolve(p.ID, out, proof)
			is.NoErr(err)
			is.Equal(p.Status, store.StatusFailed)
			is.True(strings.HasPrefix(p.FailedReason, "SETTLEMENT_EXPIRED"))
			is.Equal(p.Reserved, int64(0)) // its funds are free again
			is.Equal(e.auditActors(p.ID, "payment.failed"), []string{"operator:test"})
			is.Equal(e.Net.Applied(p.SettlementRef), 0)
		})
	}
}

// TestResolvePaidByAnotherTransaction: the payout was paid by a
// transaction this database never stored (another copy of the database
// signed it). It is accepted only when the payout's own transaction can
// never apply too, here because the other one used its sequence number.
func TestResolvePaidByAnotherTransaction(t *testing.T) {
	is := is.New(t)
	e := newLiveEnvJobs(t, false)
	e.fundVault(1000)
	dest := e.destination(true, true)
	e.Net.Inject(stellartest.Drop)
	p, err := e.pay(dest, 10_00, "4242")
	is.NoErr(err)
	p = e.advance(p.ID)
	is.Equal(p.Status, store.StatusUnknown)
	own := p.SettlementRef
	subs, err := e.DB.Chain().PaymentSubmissions(e.ctx, p.ID)
	is.NoErr(err)
	e.Net.Advance(time.Second) // signed a moment later elsewhere: another time bound, another hash
	other, status := e.outside(e.vaultSeed(), subs[0].Seq, dest, 10_0000000, txnbuild.MemoID(4242))
	is.True(other.Hash != own)
	is.Equal(status, "PENDING")

	out, proof, err := e.Rail.ProvePaid(e.ctx, p, other.Hash)
	is.NoErr(err)
	p, err = e.resolve(p.ID, out, proof)
	is.NoErr(err)
	is.Equal(p.Status, store.StatusConfirmed)
	is.Equal(p.SettlementRef, other.Hash)
	subs, err = e.DB.Chain().PaymentSubmissions(e.ctx, p.ID)
	is.NoErr(err)
	states := map[string]string{}
	for _, s := range subs {
		states[s.Hash] = s.State + " " + s.Result
	}
	is.Equal(states, map[string]string{own: "REJECTED tx_bad_seq", other.Hash: "SUCCESS "})
	p = e.advance(p.ID)
	is.Equal(p.Status, store.StatusCompleted)
	is.Equal(e.Net.Applied(own), 0)

	t.Run("ErrOwnMayApply", func(t *testing.T) {
		is := is.New(t)
		q := appliedUnknown(t, e, dest)
		again, _ := e.outside(e.vaultSeed(), e.Net.Sequence(e.Vault.Address)+1, dest, 10_0000000, txnbuild.MemoText("INV-9"))
		_, _, err := e.archiveRail().ProvePaid(e.ctx, q, again.Hash)
		is.True(err != nil) // both paid it: the operator must look
		is.True(strings.Contains(err.Error(), "the payout's own transaction "+q.SettlementRef+" may still apply"))
		is.True(strings.Contains(err.Error(), "applied in ledger"))
	})
}

// TestResolveProcessing: a PROCESSING payout whose transaction this
// database never stored (restored from a backup taken before it was
// signed) is settled by the transaction that paid it, which is then known
// like every other; it cannot be resolved as unpaid, having none in flight.
func TestResolveProcessing(t *testing.T) {
	is := is.New(t)
	e := newLiveEnvJobs(t, false)
	e.fundVault(1000)
	dest := e.destination(true, true)
	e.Net.Inject(stellartest.LoseReply)
	first, err := e.pay(dest, 5_00, "")
	is.NoErr(err)
	first = e.advance(first.ID)
	is.Equal(first.Status, store.StatusSubmitted) // holds the vault
	p, err := e.pay(dest, 7_00, "INV-7")
	is.NoErr(err)
	p = e.advance(p.ID)
	is.Equal(p.Status, store.StatusProcessing) // waits for the vault

	_, _, err = e.Rail.ProveUnpaid(e.ctx, p)
	is.True(err != nil)
	is.True(strings.Contains(err.Error(), "no transaction in flight"))

	paid, status := e.outside(e.vaultSeed(), e.Net.Sequence(e.Vault.Address)+1, dest, 7_0000000, txnbuild.MemoText("INV-7"))
	is.Equal(status, "PENDING")
	out, proof, err := e.Rail.ProvePaid(e.ctx, p, paid.Hash)
	is.NoErr(err)
	p, err = e.resolve(p.ID, out, proof)
	is.NoErr(err)
	is.Equal(p.Status, store.StatusConfirmed)
	is.Equal(p.SettlementRef, paid.Hash)
	is.Equal(e.auditActors(p.ID, "payment.submitted"), []string{"operator:test"})

	first = e.advance(first.ID)
	is.Equal(first.Status, store.StatusCompleted)
	p = e.advance(p.ID)
	is.Equal(p.Status, store.StatusCompleted)
	is.NoErr(e.Rail.SyncVaults(e.ctx))
	e.vaultMatchesChain() // both payouts booked once, as the chain moved
}

// mustSeed is the S… form of a raw seed.
func mustSeed(raw []byte) string {
	kp, err := keypair.FromRawSeed([32]byte(raw))
	if err != nil {
		panic(err)
	}
	return kp.Seed()
}
