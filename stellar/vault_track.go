package stellar

import (
	"context"
	"errors"

	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/store"
)

// startTrack begins recording the vault's movements. A vault payoutd has
// booked nothing for reads every movement the RPC server still keeps,
// from a zero opening balance: one created within the server's retention
// window has them all, and an older one shows a difference until an
// operator resyncs it from an RPC server with the history. A vault booked
// by its balance until now (a database from before movements were read,
// or one whose RPC server served no events) starts from its balance, once
// the books agree with it; until then the returned track is not tracked.
func (r *Rail) startTrack(ctx context.Context, v store.Vault, acct Account, t store.Track) (store.Track, error) {
	mark, err := r.DB.Chain().SubmissionMark(ctx, v.ID)
	if err != nil {
		return t, err
	}
	fresh := !t.Tracked() && v.Balance == 0 && v.Reserved == 0 && mark.Recorded == 0
	if fresh {
		oldest, _, err := r.retained(ctx)
		if err != nil {
			return t, err
		}
		t = store.Track{VaultID: v.ID, OpeningLedger: max(int64(oldest)-1, 1), EventsLedger: max(int64(oldest)-1, 1), Source: store.TrackEvents}
		return t, r.saveTrack(ctx, t)
	}
	if !mark.Idle() {
		return t, nil // a payout in flight: its own follow-up books it first
	}
	// The balance comparison books what it can (a deposit, a fall a
	// person accepted) or quarantines; once the books agree, the
	// movements start from the balance they agree on.
	q, err := r.sync(ctx, v, acct, mark)
	if err != nil || q != nil {
		return t, err
	}
	book, err := acct.booked()
	if err != nil {
		return t, err
	}
	level, err := r.DB.Chain().BooksLevel(ctx, v.ID, book.Balance)
	if err != nil || !level {
		return t, err
	}
	t = store.Track{VaultID: v.ID, OpeningStroops: chainBalance(acct), OpeningLedger: int64(acct.Ledger), EventsLedger: int64(acct.Ledger),
		Source: store.TrackEvents}
	return t, r.saveTrack(ctx, t)
}

// chainBalance is the account's balance of the vault's asset, in stroops.
func chainBalance(acct Account) int64 {
	if !acct.Trusts {
		return 0
	}
	return acct.Balance
}

func (r *Rail) saveTrack(ctx context.Context, t store.Track) error {
	return r.DB.WithTx(ctx, func(tx *store.Tx) error { return tx.Movements().SaveTrack(t) }, store.WithActor("system:chain_sync", ""))
}

// balanceFallback is the sync while the RPC server serves no events: the
// balance alone is compared with the books (a rise booked as a deposit
// from nobody known, a fall quarantining the vault), only while nothing
// is in flight, and the vault's track says so.
func (r *Rail) balanceFallback(ctx context.Context, v store.Vault, acct Account, t store.Track) (*store.Quarantine, error) {
	r.Log.Warn("stellar: the RPC server serves no events: comparing the vault's balance instead (fallback)", "vault", v.ID, "rpc", r.RPCURL)
	if t.Source != store.TrackBalance {
		t.Source = store.TrackBalance
		if t.OpeningLedger == 0 {
			t.OpeningLedger = int64(acct.Ledger)
		}
		if err := r.saveTrack(ctx, t); err != nil {
			return nil, err
		}
	}
	mark, err := r.DB.Chain().SubmissionMark(ctx, v.ID)
	if err != nil || !mark.Idle() {
		return r.openQuarantine(ctx, v.ID, err)
	}
	q, err := r.sync(ctx, v, acct, mark)
	if err != nil && !errors.Is(err, payout.ErrTransient) {
		return nil, err
	}
	return q, err
}
