package stellar

import (
	"context"
	"fmt"

	"github.com/payoutd/payoutd/store"
)

// ResyncResult is what a resync found.
type ResyncResult struct {
	From, Through int64
	Recorded      int // movements read that were not recorded before
	Track         store.Track
	Quarantine    *store.Quarantine
}

// Resync reads the vault's movements again from ledger from on, from the
// rail's RPC server (one that keeps the ledgers payoutd missed), and
// records those it lacks, each once: deposits are booked, transfers out
// that no payout explains quarantine the vault. When the read covers the
// vault's gap without a new one, the gap is closed; the balance check
// then says whether the movements add up. A vault whose opening balance
// is zero may be read from before its opening (an account older than the
// RPC server's history when payoutd first read it); one opened from a
// balance may not, as those movements are in it.
func (r *Rail) Resync(ctx context.Context, vaultID string, from int64) (ResyncResult, error) {
	res := ResyncResult{From: from}
	v, err := r.DB.Chain().VaultKey(ctx, vaultID)
	if err != nil {
		return res, err
	}
	if !v.Livemode {
		return res, fmt.Errorf("vault %s is a sandbox vault: it has no account on the network", vaultID)
	}
	asset, err := r.Assets.For(v.Currency)
	if err != nil {
		return res, err
	}
	track, err := r.DB.Movements().Track(ctx, vaultID)
	if err != nil {
		return res, err
	}
	if !track.Tracked() || track.Source != store.TrackEvents {
		return res, fmt.Errorf("vault %s's movements are not read from events yet: start the server with an RPC server that serves getEvents first", vaultID)
	}
	if from <= track.OpeningLedger {
		if track.OpeningStroops != 0 {
			return res, fmt.Errorf("vault %s's movements start from its balance at ledger %d: read from ledger %d or later", vaultID,
				track.OpeningLedger, track.OpeningLedger+1)
		}
		track.OpeningLedger = max(from-1, 1)
	}
	acct, err := r.vaultAccount(ctx, v.Vault, asset)
	if err != nil {
		return res, err
	}
	read, err := r.readEvents(ctx, v.Address, asset, from)
	if err != nil {
		return res, err
	}
	if read.gapFrom > 0 {
		return res, fmt.Errorf("the RPC server at %s keeps ledgers only from %d: it does not have ledgers %d to %d either", r.RPCURL,
			read.gapTo+1, read.gapFrom, read.gapTo)
	}
	moves, err := r.movements(ctx, v.Vault, asset, read.transfers)
	if err != nil {
		return res, err
	}
	book, err := acct.booked()
	if err != nil {
		return res, err
	}
	var rec recorded
	err = r.DB.WithTx(ctx, func(tx *store.Tx) error {
		rec = recorded{}
		if err := tx.Movements().SaveTrack(track); err != nil { // the opening moved back, if it did
			return err
		}
		if err := tx.Movements().CloseGap(vaultID, from); err != nil {
			return err
		}
		return record(tx, v.Vault, acct, book, track, read, moves, &rec)
	}, store.WithActor("operator:resync", ""))
	if err != nil {
		return res, err
	}
	res.Through, res.Recorded, res.Track, res.Quarantine = read.through, rec.count, rec.track, rec.quarantine
	return res, nil
}
