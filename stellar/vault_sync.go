package stellar

import (
	"context"
	"errors"
	"fmt"

	"github.com/stellar/go-stellar-sdk/txnbuild"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/store"
)

// unavailable is the rail's network out of reach, as a caller sees it.
func unavailable(err error) error {
	return apperr.Errorf(apperr.ErrRailUnavailable, "the Stellar network cannot be reached just now (%v); try again shortly", err)
}

// CheckConfirm is what a live confirm asks of the rail before its
// transaction: the payout can travel as a Stellar payment, the vault's
// movements are read up to now (a deposit that just arrived is booked
// first, so the reservation is checked against it), and the vault is not
// quarantined. The returned step, run first in the confirm transaction,
// refuses a vault quarantined meanwhile.
func (r *Rail) CheckConfirm(ctx context.Context, p store.Payment, v store.Vault) (func(tx *store.Tx) error, error) {
	if err := r.CheckPayment(p); err != nil {
		return nil, err
	}
	if p.DestinationAddress == v.Address {
		return nil, &apperr.Error{Code: apperr.ErrValidation, Message: "request validation failed", Fields: map[string]string{"destinationAddress": ownAccount}}
	}
	asset, err := r.Assets.For(v.Currency)
	if err != nil {
		return nil, &apperr.Error{Code: apperr.ErrValidation, Message: "request validation failed", Fields: map[string]string{"currency": err.Error()}}
	}
	q, err := r.syncVaultAccount(ctx, v, asset)
	if err != nil {
		return nil, unavailableIfTransient(err)
	}
	if q != nil {
		return nil, quarantined(*q)
	}
	return func(tx *store.Tx) error {
		if q, open, err := tx.Movements().VaultQuarantined(v.ID); err != nil || open {
			if err == nil {
				err = quarantined(q)
			}
			return err
		}
		return nil
	}, nil
}

// quarantined is the error a request meets at a quarantined vault.
func quarantined(q store.Quarantine) error {
	return apperr.Errorf(apperr.ErrInvalidState, "%s", q.Describe())
}

func unavailableIfTransient(err error) error {
	if errors.Is(err, payout.ErrTransient) || errors.Is(err, ErrBehind) {
		return unavailable(err)
	}
	return err
}

// SyncVaults reads every live vault's account: it follows a changeTrust in
// flight, records the movements of its asset (booking deposits, naming
// transfers payoutd did not make), checks the balance against them, and
// opens the trustline an existing account lacks. One vault's trouble does
// not stop the rest.
func (r *Rail) SyncVaults(ctx context.Context) error {
	vaults, err := r.DB.Chain().LiveVaults(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, v := range vaults {
		if err := r.syncVault(ctx, v); err != nil && !errors.Is(err, payout.ErrTransient) && apperr.Code(err) != apperr.ErrRailUnavailable {
			errs = append(errs, fmt.Errorf("vault %s: %w", v.ID, err))
		}
	}
	return errors.Join(errs...)
}

func (r *Rail) syncVault(ctx context.Context, v store.VaultWithKey) error {
	asset, err := r.Assets.For(v.Currency)
	if err != nil {
		return nil // a currency without an asset has nothing on chain to follow
	}
	open, ok, err := r.DB.Chain().OpenSubmission(ctx, v.ID)
	if err != nil {
		return err
	}
	if ok && open.Kind == store.SubmissionChangeTrust {
		// The vault's own changeTrust is this job's to follow (a payout's
		// envelope is its job's).
		if err := r.followTrust(ctx, open); err != nil {
			return err
		}
	}
	if q, err := r.syncVaultAccount(ctx, v.Vault, asset); err != nil || q != nil || ok {
		return err
	}
	mark, err := r.DB.Chain().SubmissionMark(ctx, v.ID)
	if err != nil || !mark.Idle() {
		return err
	}
	acct, err := r.vaultAccount(ctx, v.Vault, asset)
	if err != nil {
		return err
	}
	if acct.Exists && !acct.Trusts {
		if waits, err := r.trustlineWaits(ctx, v.ID, acct); err != nil || waits {
			return err
		}
		return r.openTrustline(ctx, v, asset, acct, mark)
	}
	return nil
}

// syncVaultAccount reads the vault's account and the movements of its
// asset since the last read, and records them in one transaction: each
// movement once; a deposit booked at once, whatever else waits (a payout
// in flight or UNKNOWN, a quarantine); a transfer out that no payout of
// the vault explains, or a sequence number payoutd cannot account for,
// quarantines the vault naming what was found. It returns the vault's
// quarantine, if it has one. The balance read is the check on the
// movements, never their source: a difference is recorded, not booked.
func (r *Rail) syncVaultAccount(ctx context.Context, v store.Vault, asset txnbuild.CreditAsset) (*store.Quarantine, error) {
	track, err := r.DB.Movements().Track(ctx, v.ID)
	if err != nil {
		return nil, err
	}
	acct, err := r.vaultAccount(ctx, v, asset)
	if err != nil {
		return nil, err
	}
	if !track.Tracked() || track.Source == store.TrackBalance {
		if track, err = r.startTrack(ctx, v, acct, track); err != nil || !track.Tracked() {
			return r.openQuarantine(ctx, v.ID, err)
		}
	}
	read, err := r.readEvents(ctx, v.Address, asset, track.EventsLedger+1)
	if errors.Is(err, errNoEvents) {
		return r.balanceFallback(ctx, v, acct, track)
	}
	if err != nil {
		return nil, err
	}
	moves, err := r.movements(ctx, v, asset, read.transfers)
	if err != nil {
		return nil, err
	}
	book, err := acct.booked()
	if err != nil {
		return nil, err
	}
	book.Unknown = r.unknownTransactions(ctx, v, book)
	var res recorded
	bound := map[string]store.LiveAsset{v.Currency: {Code: asset.Code, Issuer: asset.Issuer}}
	err = r.DB.WithTx(ctx, func(tx *store.Tx) error {
		res = recorded{}
		// The books are bound to the assets their vaults hold, once used.
		if err := tx.Chain().BindNetwork(r.Passphrase, bound); err != nil {
			return err
		}
		if err := tx.Movements().RaiseLatestLedger(int64(r.Seen())); err != nil {
			return err
		}
		return record(tx, v, acct, book, track, read, moves, &res)
	}, store.WithActor("system:chain_sync", ""))
	if err != nil {
		return nil, err
	}
	if q := res.quarantine; res.opened {
		r.Log.Error("stellar: "+q.Describe(), "vault", v.ID, "reasons", q.Reasons, "chainSequence", q.ChainSeq,
			"knownSequence", q.KnownSeq, "unknownTransactions", q.Hashes)
	}
	if res.mismatch != 0 {
		r.Log.Warn("stellar: the vault's balance on the network does not equal its opening balance plus the movements recorded",
			"vault", v.ID, "differenceStroops", res.mismatch, "gapFrom", res.track.GapFrom, "gapTo", res.track.GapTo)
	}
	return res.quarantine, nil
}

// openQuarantine returns the vault's quarantine, if any, unless err.
func (r *Rail) openQuarantine(ctx context.Context, vaultID string, err error) (*store.Quarantine, error) {
	if err != nil {
		return nil, err
	}
	q, open, err := r.DB.Movements().OpenQuarantine(ctx, vaultID)
	if err != nil || !open {
		return nil, err
	}
	return &q, nil
}

// movements is what the transfers mean for the vault, each outgoing one
// tied to the payout whose envelope it is.
func (r *Rail) movements(ctx context.Context, v store.Vault, asset txnbuild.CreditAsset, transfers []Transfer) ([]store.Movement, error) {
	var out []store.Movement
	var hashes []string
	for _, t := range transfers {
		m, err := movementOf(t, v, asset)
		if err != nil {
			return nil, transient("getEvents", err)
		}
		if m != nil {
			out = append(out, *m)
			hashes = append(hashes, m.TxHash)
		}
	}
	// Envelopes are stored before they are sent, so one of the vault's
	// that applied is already known here.
	known, err := r.DB.Chain().SubmissionsByHash(ctx, hashes)
	if err != nil {
		return nil, err
	}
	for i := range out {
		explain(&out[i], known)
	}
	return out, nil
}

// recorded is what one sync recorded.
type recorded struct {
	count      int // movements recorded now
	quarantine *store.Quarantine
	opened     bool
	mismatch   int64
	track      store.Track
}

// record writes what a sync read, in tx: the movements (each once), the
// deposits booked, the track moved on with its balance check, and a
// quarantine for whatever payoutd cannot account for.
func record(tx *store.Tx, v store.Vault, acct Account, book store.ChainRead, track store.Track, read eventsRead, moves []store.Movement, res *recorded) error {
	// From now on an answer lacking what was read here is a misanswer.
	if err := tx.Chain().MarkSeen(v.ID, book.Ledger, book.Exists, book.Trusts); err != nil {
		return err
	}
	var outside []store.Movement
	for i := range moves {
		m := moves[i]
		if m.Direction == store.MovementOut && m.PaymentID == "" {
			at := tx.Now()
			m.OutsideAt = &at
		}
		ok, err := tx.Movements().RecordMovement(&m)
		if err != nil || !ok {
			if err != nil {
				return err
			}
			continue
		}
		res.count++
		switch {
		case m.Direction == store.MovementIn:
			if err := tx.Movements().BookDeposit(m, depositDescription(m)); err != nil {
				return err
			}
		case m.PaymentID == "":
			outside = append(outside, m)
		}
	}
	track.EventsLedger = max(track.EventsLedger, read.through)
	if err := checkBalance(tx, acct, &track); err != nil {
		return err
	}
	if err := tx.Movements().SaveTrack(track); err != nil {
		return err
	}
	if read.gapFrom > 0 {
		if err := tx.Movements().WidenGap(v.ID, read.gapFrom, read.gapTo); err != nil {
			return err
		}
	}
	saved, err := tx.Movements().Track(v.ID)
	if err != nil {
		return err
	}
	res.mismatch, res.track = saved.MismatchStroops, saved
	known, err := tx.Chain().KnownSeq(v.ID)
	if err != nil {
		return err
	}
	facts, stop := quarantineFacts(book, known, outside)
	if !stop {
		return nil
	}
	q, opened, err := tx.Movements().QuarantineVault(v.ID, facts)
	res.quarantine, res.opened = &q, opened
	return err
}

// checkBalance compares the account's balance, read at ledger acct.Ledger,
// with the opening balance plus the movements recorded up to that ledger.
// They can be compared only when the movements reach that ledger, or the
// account has not changed since the last ledger they reach.
func checkBalance(tx *store.Tx, acct Account, t *store.Track) error {
	var through int64
	switch {
	case t.EventsLedger >= int64(acct.Ledger):
		through = int64(acct.Ledger)
	case int64(acct.Modified) <= t.EventsLedger:
		through = 0
	default:
		return nil // movements after the last read: the next sync compares
	}
	in, out, err := tx.Movements().MovementTotals(t.VaultID, t.OpeningLedger, through)
	if err != nil {
		return err
	}
	chain := int64(0)
	if acct.Trusts {
		chain = acct.Balance
	}
	t.CheckedLedger, t.MismatchStroops = int64(acct.Ledger), chain-(t.OpeningStroops+in-out)
	return nil
}
