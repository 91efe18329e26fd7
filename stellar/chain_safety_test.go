package stellar_test

import (
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/xdr"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/stellar"
	"github.com/payoutd/payoutd/stellar/stellartest"
	"github.com/payoutd/payoutd/store"
)

// advanceFinal runs the payout's pipeline, moving the network's clock a
// minute between runs, until it is COMPLETED or FAILED or runs are spent.
func (e *liveEnv) advanceFinal(id string, runs int) store.Payment {
	e.t.Helper()
	var p store.Payment
	for range runs {
		if p = e.advance(id); p.Status == store.StatusCompleted || p.Status == store.StatusFailed {
			return p
		}
		e.Net.Advance(time.Minute)
	}
	return p
}

// balances are the vault row, its ledger account and the chain balance
// (in cents).
func (e *liveEnv) balances() (row, ledger, chain int64) {
	e.t.Helper()
	is := is.New(e.t)
	is.NoErr(e.SQL.QueryRow("SELECT balance FROM vaults WHERE id = ?", e.Vault.ID).Scan(&row))
	is.NoErr(e.SQL.QueryRow(`SELECT coalesce(sum(p.amount), 0) FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account_id
		WHERE a.kind = 'vault' AND a.ref = ?`, e.Vault.ID).Scan(&ledger))
	c, _ := e.Net.Balance(e.Vault.Address, usdc)
	return row, ledger, c / 100_000
}

func (e *liveEnv) release(note string) error {
	return e.DB.WithTx(e.ctx, func(tx *store.Tx) error {
		_, _, err := payout.Release(tx, e.Vault.ID, note)
		return err
	}, store.WithActor("operator:test", ""))
}

// TestLiveHistoryGap: a payout's send is applied but its reply lost; the
// next RPC node payoutd asks keeps no history from before the envelope was
// signed (a resynced or failed-over node). Its NOT_FOUND and the resend's
// tx_bad_seq prove nothing: the payout stays UNKNOWN (no retry can pay it
// twice), before and after its time bound.
func TestLiveHistoryGap(t *testing.T) {
	is := is.New(t)
	e := newLiveEnvJobs(t, false)
	e.fundVault(1000)
	e.Net.Inject(stellartest.LoseReply)
	p, err := e.pay(e.destination(true, true), 10_00, "")
	is.NoErr(err)
	p = e.advance(p.ID)
	first := p.SettlementRef
	is.Equal(e.Net.Applied(first), 1)

	e.Net.Prune() // the node's history starts after the envelope's ledger
	p = e.advance(p.ID)
	is.Equal(p.Status, store.StatusUnknown) // not FAILED on tx_bad_seq
	err = e.DB.WithTx(e.ctx, func(tx *store.Tx) error { _, err := payout.Retry(tx, e.UserID, p.ID); return err })
	is.True(err != nil) // no second envelope while the first may have paid

	e.Net.Advance(3 * time.Minute) // past the time bound: still no proof
	p = e.advance(p.ID)
	is.Equal(p.Status, store.StatusUnknown)
	is.Equal(e.Net.Applied(first), 1)
	subs, err := e.DB.Chain().PaymentSubmissions(e.ctx, p.ID)
	is.NoErr(err)
	is.Equal(len(subs), 1)
	is.Equal(subs[0].State, store.SubmissionOpen)
}

// TestLiveBadSeqWithHistoryIsFinal: the same refusal, from a node whose
// history reaches back to the envelope's signing, proves the envelope
// never applied: the payout fails, and the sequence number it lost to
// another transaction quarantines the vault.
func TestLiveBadSeqWithHistoryIsFinal(t *testing.T) {
	is := is.New(t)
	e := newLiveEnvJobs(t, false)
	e.fundVault(1000)
	e.Net.Inject(stellartest.BadSeq)
	p, err := e.pay(e.destination(true, true), 10_00, "")
	is.NoErr(err)
	p = e.advance(p.ID)
	is.Equal(p.Status, store.StatusFailed)
	is.True(strings.HasPrefix(p.FailedReason, "SETTLEMENT_REJECTED: tx_bad_seq"))
	is.NoErr(e.Rail.SyncVaults(e.ctx))
	q, open, err := e.DB.Movements().OpenQuarantine(e.ctx, e.Vault.ID)
	is.NoErr(err)
	is.True(open)
	is.Equal(q.Reasons, []string{store.ReasonUnknownSequence})
	is.Equal(q.UnknownTxs(), int64(1))
}

// TestLiveMisansweredLedgerEntries: a getLedgerEntries reply that is
// empty, lacks the trustline, or answers about another account is the RPC
// server misanswering. The chain sync posts nothing from it (an empty
// reply was once a full withdrawal) and signs nothing (a reply without the
// trustline was once a changeTrust signed again, one about another account
// a changeTrust with that account's sequence number); a live confirm is
// told the rail is unavailable; and a payout whose envelope may have
// applied is not read as expired and unpaid because the reply lacked the
// account.
func TestLiveMisansweredLedgerEntries(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fault stellartest.EntriesFault
	}{
		{"Empty", stellartest.EntriesEmpty},
		{"AccountWithoutTrustline", stellartest.EntriesFirstOnly},
		{"AnotherAccount", stellartest.EntriesForeign},
	} {
		t.Run("Sync"+tc.name, func(t *testing.T) {
			is := is.New(t)
			e := newLiveEnvJobs(t, false)
			e.fundVault(100)
			e.destination(true, true) // another account the node could answer about
			sends := e.Net.Sends()
			e.Net.InjectEntries(tc.fault)
			e.Rail.SyncVaults(e.ctx)
			is.Equal(e.Net.Sends(), sends) // nothing signed on a misanswer
			row, ledger, chain := e.balances()
			is.Equal(row, int64(100_00))
			is.Equal(ledger, row)
			is.Equal(chain, row)
			_, open, err := e.DB.Movements().OpenQuarantine(e.ctx, e.Vault.ID)
			is.NoErr(err)
			is.True(!open) // a misanswer is not an anomaly of the vault
			var n int
			is.NoErr(e.SQL.QueryRow("SELECT count(*) FROM audit_log WHERE action = 'vault.withdrawn'").Scan(&n))
			is.Equal(n, 0)
		})
	}
	for _, tc := range []struct {
		name  string
		fault stellartest.EntriesFault
	}{
		{"Empty", stellartest.EntriesEmpty},
		{"AccountWithoutTrustline", stellartest.EntriesFirstOnly},
		{"AnotherAccount", stellartest.EntriesForeign},
	} {
		t.Run("Confirm"+tc.name, func(t *testing.T) {
			is := is.New(t)
			e := newLiveEnvJobs(t, false)
			e.fundVault(100)
			dest := e.destination(true, true)
			e.Net.InjectEntries(tc.fault)
			_, err := e.Rail.CheckConfirm(e.ctx, store.Payment{Currency: "USD", Amount: 1_00, DestinationAddress: dest}, e.Vault)
			is.Equal(apperr.Code(err), apperr.ErrRailUnavailable) // 503: ask again shortly
			row, _, _ := e.balances()
			is.Equal(row, int64(100_00))
		})
	}
	t.Run("ExpiryCheck", func(t *testing.T) {
		is := is.New(t)
		e := newLiveEnvJobs(t, false)
		e.fundVault(1000)
		e.Net.Inject(stellartest.LoseReply)
		p, err := e.pay(e.destination(true, true), 10_00, "")
		is.NoErr(err)
		p = e.advance(p.ID)
		e.Net.Advance(48 * time.Hour) // payoutd was off for two days
		e.Net.Prune()
		e.Net.InjectEntries(stellartest.EntriesEmpty)
		p = e.advance(p.ID)
		is.True(p.Status != store.StatusFailed) // not "expired, nothing was paid"
		p = e.advance(p.ID)
		is.Equal(p.Status, store.StatusUnknown)
		is.Equal(e.Net.Applied(p.SettlementRef), 1)
	})
}

// TestLiveOutsideDebitQuarantines: the vault's key pays from its account
// behind payoutd's back (a restored backup's twin, a leaked key). The
// transfer is recorded from the chain's events but not booked: the vault
// is quarantined naming its transaction, destination and amount, signs
// nothing (a payout waits), says so in an event, and only a person's
// release goes on, booking the transfer as a withdrawal outside payoutd;
// the waiting payout settles. A deposit while quarantined is booked at once.
func TestLiveOutsideDebitQuarantines(t *testing.T) {
	is := is.New(t)
	e := newLiveEnvJobs(t, false)
	e.fundVault(100)
	thief := e.destination(true, true)
	hash := e.Net.OutsidePayment(e.Vault.Address, thief, usdc, 30_0000000)
	is.NoErr(e.Rail.SyncVaults(e.ctx))
	q, open, err := e.DB.Movements().OpenQuarantine(e.ctx, e.Vault.ID)
	is.NoErr(err)
	is.True(open)
	is.Equal(q.Reasons, []string{store.ReasonUnknownSequence, store.ReasonOutsideTransfer})
	is.Equal(len(q.Outside), 1)
	is.Equal(q.Outside[0].TxHash, hash)
	is.Equal(q.Outside[0].Counterparty, thief)
	is.Equal(q.Outside[0].Amount, int64(30_00))
	is.True(strings.Contains(q.Describe(), "transaction "+hash+" paid 30.00 USD to "+thief))
	row, ledger, _ := e.balances()
	is.Equal(row, int64(100_00)) // nothing booked
	is.Equal(ledger, row)
	var events int
	is.NoErr(e.SQL.QueryRow("SELECT count(*) FROM events WHERE type = 'vault.quarantined' AND resource_id = ?", e.Vault.ID).Scan(&events))
	is.Equal(events, 1)

	sends := e.Net.Sends()
	p, err := e.pay(e.destination(true, true), 10_00, "")
	is.NoErr(err)
	p = e.advance(p.ID)
	is.Equal(p.Status, store.StatusProcessing) // waits for a person
	is.Equal(e.Net.Sends(), sends)             // nothing signed or sent
	_, err = e.Rail.CheckConfirm(e.ctx, store.Payment{Currency: "USD", Amount: 1_00, DestinationAddress: thief}, e.Vault)
	is.Equal(apperr.Code(err), apperr.ErrInvalidState) // no new payout confirms from it
	is.True(strings.Contains(err.Error(), "quarantined"))

	client := keypair.MustRandom().Address()
	depHash := e.Net.Deposit(client, e.Vault.Address, usdc, 5_0000000, "INV-7")
	is.NoErr(e.Rail.SyncVaults(e.ctx)) // a deposit while quarantined is booked at once
	row, ledger, _ = e.balances()
	is.Equal(row, int64(105_00))
	is.Equal(ledger, row)
	deps, _, err := e.DB.Vaults().ListDeposits(e.ctx, store.DepositFilter{UserID: e.Vault.UserID, Livemode: true, Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(deps[0].TxHash, depHash)
	is.Equal(deps[0].Counterparty, client)
	is.Equal(deps[0].Memo, "INV-7")
	is.NoErr(e.SQL.QueryRow("SELECT count(*) FROM events WHERE type = 'deposit.received' AND resource_id = ?", deps[0].ID).Scan(&events))
	is.Equal(events, 1)
	q, _, err = e.DB.Movements().OpenQuarantine(e.ctx, e.Vault.ID)
	is.NoErr(err)
	is.True(strings.Contains(q.Describe(), hash)) // "30.00 out and 5.00 in", not "25.00 out"

	is.NoErr(e.release("the transfer to " + thief + " was the owner's own"))
	is.NoErr(e.Rail.SyncVaults(e.ctx))
	row, ledger, chain := e.balances()
	is.Equal(row, chain) // the accepted transfer is booked
	is.Equal(ledger, row)
	is.Equal(row, int64(75_00))
	p = e.advanceFinal(p.ID, 3)
	is.Equal(p.Status, store.StatusCompleted)
	is.NoErr(e.Rail.SyncVaults(e.ctx))
	e.vaultMatchesChain()
	track, err := e.DB.Movements().Track(e.ctx, e.Vault.ID)
	is.NoErr(err)
	is.Equal(track.MismatchStroops, int64(0)) // opening + movements = chain
}

// TestLiveBalanceFallsByItself: a fall the chain's events do not explain
// (a node misreporting, history missing) is shown as a difference between
// the balance and the movements recorded, and nothing is booked for it; a
// clawback is an event, a transfer out nobody made, and quarantines.
func TestLiveBalanceFallsByItself(t *testing.T) {
	is := is.New(t)
	e := newLiveEnvJobs(t, false)
	e.fundVault(100)
	e.Net.Trust(e.Vault.Address, usdc, -20_0000000) // no event
	is.NoErr(e.Rail.SyncVaults(e.ctx))
	track, err := e.DB.Movements().Track(e.ctx, e.Vault.ID)
	is.NoErr(err)
	is.Equal(track.MismatchStroops, int64(-20_0000000))
	row, ledger, _ := e.balances()
	is.Equal(row, int64(100_00)) // nothing booked by guess
	is.Equal(ledger, row)

	hash := e.Net.Clawback(e.Vault.Address, usdc, 5_0000000)
	is.NoErr(e.Rail.SyncVaults(e.ctx))
	q, open, err := e.DB.Movements().OpenQuarantine(e.ctx, e.Vault.ID)
	is.NoErr(err)
	is.True(open)
	is.Equal(q.Reasons, []string{store.ReasonOutsideTransfer})
	is.Equal(q.Outside[0].TxHash, hash)
	is.Equal(q.Outside[0].Kind, "clawback")
	is.Equal(q.Outside[0].Amount, int64(5_00))
	is.NoErr(e.release("the issuer clawed back 5.00"))
	row, _, _ = e.balances()
	is.Equal(row, int64(95_00))
}

// TestLiveFeeFromNetwork: the network's minimum fee is above the 1000
// stroops payoutd used to offer. The bid comes from getFeeStats and the
// payout settles, charged the network's fee; when the stats lag the
// minimum, each refusal until the time bound raises the bid, within the
// cap; at the cap the payout fails saying the fee was refused.
func TestLiveFeeFromNetwork(t *testing.T) {
	for _, tc := range []struct {
		name     string
		stats    int64 // what getFeeStats reports (0: the minimum)
		maxFee   int64
		status   string
		minBid   int64
		resigned int
	}{
		{"StatsMeetMinimum", 0, 0, store.StatusCompleted, 5000, 0},
		{"StatsLagRaiseBid", 1000, 0, store.StatusCompleted, 5000, 3}, // 1000, 2000, 4000, 8000
		{"ErrCapBelowMinimum", 1000, 3000, store.StatusFailed, 0, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			e := newLiveEnvJobs(t, false)
			e.Rail.MaxFee = tc.maxFee
			e.fundVault(1000)
			e.Net.SetMinFee(5000)
			e.Net.SetFeeStats(tc.stats)
			p, err := e.pay(e.destination(true, true), 10_00, "")
			is.NoErr(err)
			p = e.advanceFinal(p.ID, 20)
			is.Equal(p.Status, tc.status)
			subs, err := e.DB.Chain().PaymentSubmissions(e.ctx, p.ID)
			is.NoErr(err)
			is.Equal(len(subs), tc.resigned+1)
			last := subs[len(subs)-1]
			if tc.status == store.StatusFailed {
				is.True(strings.Contains(p.FailedReason, "tx_insufficient_fee"))
				is.True(strings.Contains(p.FailedReason, "3000 stroops"))
				return
			}
			var env xdr.TransactionEnvelope
			is.NoErr(xdr.SafeUnmarshalBase64(last.Envelope, &env))
			is.True(int64(env.Fee()) >= tc.minBid)
			is.Equal(last.Fee, int64(5000)) // charged the network's fee
			for _, s := range subs {
				is.True(e.Net.Applied(s.Hash) <= 1)
			}
			e.vaultMatchesChain()
		})
	}
}

// TestLiveClockBehind: this machine's clock is five minutes behind the
// network's. Time bounds are set on the network's clock, so envelopes are
// not born expired and the payout settles; the health line shows the skew.
func TestLiveClockBehind(t *testing.T) {
	is := is.New(t)
	e := newLiveEnvJobs(t, false)
	e.Rail.Now = func() time.Time { return e.Net.Now().Add(-5 * time.Minute) }
	e.fundVault(1000)
	p, err := e.pay(e.destination(true, true), 10_00, "")
	is.NoErr(err)
	p = e.advanceFinal(p.ID, 5)
	is.Equal(p.Status, store.StatusCompleted)
	h, degraded := e.Rail.Health(e.ctx)
	skew := h.(stellar.Health).ClockSkewSeconds // close times are whole seconds
	is.True(skew == -300 || skew == -299)
	is.Equal(len(degraded), 1)
	is.True(strings.Contains(degraded[0], "clock"))
}

// TestLiveSettledAtLedgerClose: a payout applied at 23:59:50 IST on 31
// March, recorded by payoutd after midnight. Its settledAt is the close
// time of the ledger that applied it, so it belongs to the financial year
// that ended, valued at the rate as of then; the submission keeps the
// ledger, its close time and the fee charged.
func TestLiveSettledAtLedgerClose(t *testing.T) {
	is := is.New(t)
	e := newLiveEnvJobs(t, false)
	closeAt := time.Date(2027, 3, 31, 18, 29, 50, 0, time.UTC) // 23:59:50 IST
	e.Net.Advance(closeAt.Sub(e.Net.Now()))
	e.fundVault(1000)
	e.DB.SetClock(func() time.Time { return closeAt.Add(40 * time.Second) }) // payoutd's clock: 1 April, IST
	p, err := e.pay(e.destination(true, true), 10_00, "")
	is.NoErr(err)
	p = e.advance(p.ID)
	is.Equal(p.Status, store.StatusCompleted)
	is.True(p.SettledAt.Equal(closeAt))
	is.Equal(india.DateOf(*p.SettledAt), "2027-03-31")
	asOf, ok, err := e.DB.Ledger().RateAsOf(e.ctx, p.ID)
	is.NoErr(err)
	is.True(ok)
	is.True(asOf.Equal(closeAt.Add(-time.Hour))) // the test rate source's quote as of the close time
	subs, err := e.DB.Chain().PaymentSubmissions(e.ctx, p.ID)
	is.NoErr(err)
	is.True(subs[0].ClosedAt.Equal(closeAt))
	is.True(subs[0].Ledger > 0)
	is.Equal(subs[0].Fee, int64(100))
}
