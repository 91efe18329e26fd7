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
// transaction: the payout can travel as a Stellar payment, the vault is
// not quarantined, and the vault's balance is as the chain has it. The
// returned step, run first in the confirm transaction, posts any deposit
// to the ledger, so the reservation that follows is checked against the
// chain balance.
func (r *Rail) CheckConfirm(ctx context.Context, p store.Payment, v store.Vault) (func(tx *store.Tx) error, error) {
	if err := r.CheckPayment(p); err != nil {
		return nil, err
	}
	if p.DestinationAddress == v.Address {
		return nil, &apperr.Error{Code: apperr.ErrValidation, Message: "request validation failed", Fields: map[string]string{"destinationAddress": ownAccount}}
	}
	return r.syncStep(ctx, v)
}

// quarantined is the error a request meets at a quarantined vault.
func quarantined(q store.Quarantine) error {
	return apperr.Errorf(apperr.ErrInvalidState, "%s", q.Describe())
}

// syncStep reads the vault's chain state and returns the step that brings
// its ledger account level with it. An anomaly (a sequence number payoutd
// cannot account for, a fall in the balance) is judged first in a
// transaction of its own, so the quarantine it opens outlives the
// confirm it refuses.
func (r *Rail) syncStep(ctx context.Context, v store.Vault) (func(tx *store.Tx) error, error) {
	asset, err := r.Assets.For(v.Currency)
	if err != nil {
		return nil, &apperr.Error{Code: apperr.ErrValidation, Message: "request validation failed", Fields: map[string]string{"currency": err.Error()}}
	}
	if q, open, err := r.DB.OpenQuarantine(ctx, v.ID); err != nil || open {
		if err == nil {
			err = quarantined(q)
		}
		return nil, err
	}
	mark, err := r.DB.SubmissionMark(ctx, v.ID)
	if err != nil {
		return nil, err
	}
	acct, err := r.vaultAccount(ctx, v, asset)
	if err != nil {
		return nil, unavailable(err)
	}
	read, err := acct.booked()
	if err != nil {
		return nil, unavailable(err)
	}
	known, err := r.DB.KnownSeq(ctx, v.ID)
	if err != nil {
		return nil, err
	}
	if read.Seq > store.ExplainedSeq(read.Seq, known) || read.Balance < v.Balance {
		q, err := r.sync(ctx, v, acct, mark)
		if err != nil {
			return nil, unavailableIfTransient(err)
		}
		if q != nil {
			return nil, quarantined(*q)
		}
	}
	return func(tx *store.Tx) error {
		res, err := tx.SyncVault(v.ID, read, mark)
		if err == nil && res.Quarantine != nil {
			err = quarantined(*res.Quarantine)
		}
		return err
	}, nil
}

func unavailableIfTransient(err error) error {
	if errors.Is(err, payout.ErrTransient) {
		return unavailable(err)
	}
	return err
}

// sync books the vault's account as read after mark (SyncVault) in its own
// transaction, and returns the vault's quarantine if it has one, found or
// opened now (naming the unknown transactions it can find).
func (r *Rail) sync(ctx context.Context, v store.Vault, acct Account, mark store.SubmissionMark) (*store.Quarantine, error) {
	read, err := acct.booked()
	if err != nil {
		return nil, err
	}
	read.Unknown = r.unknownTransactions(ctx, v, read)
	var res store.SyncResult
	err = r.DB.WithTx(ctx, func(tx *store.Tx) error {
		res, err = tx.SyncVault(v.ID, read, mark)
		return err
	}, store.WithActor("system:chain_sync", ""))
	if err != nil {
		return nil, err
	}
	if q := res.Quarantine; res.Opened {
		r.Log.Error("stellar: "+q.Describe(), "vault", v.ID, "reasons", q.Reasons, "chainSequence", q.ChainSeq,
			"knownSequence", q.KnownSeq, "shortfall", q.Shortfall, "unknownTransactions", q.Hashes)
	}
	return res.Quarantine, nil
}

// SyncVaults brings every live vault level with its account: it follows a
// changeTrust in flight, opens the trustline an existing account lacks, and
// posts deposits; an anomaly quarantines the vault. One vault's trouble
// does not stop the rest.
func (r *Rail) SyncVaults(ctx context.Context) error {
	vaults, err := r.DB.LiveVaults(ctx)
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
	open, ok, err := r.DB.OpenSubmission(ctx, v.ID)
	if err != nil {
		return err
	}
	if ok {
		// A payout's envelope is its job's to follow; the vault's own
		// changeTrust is this job's.
		if open.Kind == store.SubmissionChangeTrust {
			return r.followTrust(ctx, open)
		}
		return nil
	}
	mark, err := r.DB.SubmissionMark(ctx, v.ID)
	if err != nil {
		return err
	}
	acct, err := r.vaultAccount(ctx, v.Vault, asset)
	if err != nil {
		return err
	}
	// The mark and account just read serve the balance too: no second read.
	if q, err := r.sync(ctx, v.Vault, acct, mark); err != nil || q != nil {
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

// openTrustline signs a changeTrust for the vault's asset, stores it like
// a payout's envelope (it takes the account's next sequence number, which
// the sync just judged), and sends it; the next sync follows it to its
// end.
func (r *Rail) openTrustline(ctx context.Context, v store.VaultWithKey, asset txnbuild.CreditAsset, acct Account, mark store.SubmissionMark) error {
	_, seed, err := r.vaultKey(ctx, v.ID)
	if err != nil {
		return err
	}
	ct, err := asset.ToChangeTrustAsset()
	if err != nil {
		return err
	}
	fee, err := r.feeBid(ctx, nil)
	if err != nil {
		return err
	}
	now, err := r.networkNow(ctx)
	if err != nil {
		return err
	}
	env, err := Signed(r.Passphrase, seed, acct.Seq+1, now.Add(r.txTimeout()), fee, nil, &txnbuild.ChangeTrust{Line: ct, Limit: txnbuild.MaxTrustlineLimit})
	if err != nil {
		return err
	}
	sub := store.Submission{Hash: env.Hash, VaultID: v.ID, Kind: store.SubmissionChangeTrust, State: store.SubmissionOpen, Seq: env.Seq,
		Envelope: env.XDR, ValidUntil: env.ValidUntil, SignedLedger: int64(acct.Ledger)}
	err = r.DB.WithTx(ctx, func(tx *store.Tx) error {
		if err := tx.RecordSubmission(sub, mark); err != nil {
			return err
		}
		if err := tx.RecordTrustlineAttempt(v.ID, env.Hash, acct.Native); err != nil {
			return err
		}
		return tx.Audit(v.UserID, v.Livemode, "vault.trustline_submitted", "vault", v.ID, map[string]any{"asset": asset.Code + ":" + asset.Issuer, "hash": env.Hash})
	}, store.WithActor("system:chain_sync", ""))
	if errors.Is(err, store.ErrVaultBusy) || errors.Is(err, store.ErrVaultQuarantined) {
		return nil
	}
	if err != nil {
		return err
	}
	return r.followTrust(ctx, sub)
}

// followTrust sends or follows the vault's changeTrust and records its end.
func (r *Rail) followTrust(ctx context.Context, sub store.Submission) error {
	end, err := r.follow(ctx, sub)
	if err != nil || end == nil {
		return err
	}
	if end.State != store.SubmissionSuccess {
		r.Log.Warn("stellar: the vault's trustline was not opened", "vault", sub.VaultID, "result", Explain(end.Result)+lastRefusal(sub))
	}
	return r.DB.WithTx(ctx, func(tx *store.Tx) error {
		return tx.FinishSubmission(sub.Hash, *end)
	}, store.WithActor("system:chain_sync", ""))
}

// NetworkState is what a wallet view shows of the vault's account, so a
// user sees what is missing before a payout can leave it.
type NetworkState struct {
	Network       string `json:"network"`
	AccountExists bool   `json:"accountExists"`
	Trustline     bool   `json:"trustline"`
	Asset         string `json:"asset"`
	AssetBalance  string `json:"assetBalance"`
	NativeBalance string `json:"nativeBalanceXlm"`
	Reachable     bool   `json:"reachable"`
	// TrustlineMissing says, while the account lacks the trustline, why
	// and what opens it (trustline_backoff.go).
	TrustlineMissing string `json:"trustlineMissing,omitempty"`
}

// Network reads the vault's account for the wallet view; an unreachable
// network is reported in the state, not as an error.
func (r *Rail) Network(ctx context.Context, v store.Vault) (any, error) {
	st := NetworkState{Network: r.NetworkName()}
	asset, err := r.Assets.For(v.Currency)
	if err != nil {
		return st, nil
	}
	st.Asset = asset.Code + ":" + asset.Issuer
	acct, err := r.vaultAccount(ctx, v, asset)
	if err != nil {
		return st, nil
	}
	st.Reachable, st.AccountExists, st.Trustline = true, acct.Exists, acct.Trusts
	st.AssetBalance, st.NativeBalance = stroopString(acct.Balance), stroopString(acct.Native)
	if !acct.Trusts {
		st.TrustlineMissing = r.trustlineMissing(ctx, v.ID, acct)
	}
	return st, nil
}
