package stellar

import (
	"context"
	"errors"
	"fmt"

	"github.com/stellar/go-stellar-sdk/txnbuild"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/store"
)

// unavailable is the rail's network out of reach, as a caller sees it.
func unavailable(err error) error {
	return apperr.Errorf(apperr.ErrRailUnavailable, "the Stellar network cannot be reached just now (%v); try again shortly", err)
}

// CheckConfirm is what a live confirm asks of the rail before its
// transaction: the payout can travel as a Stellar payment, and the vault's
// balance as the chain has it. The returned step, run first in the confirm
// transaction, posts any difference to the ledger, so the reservation that
// follows is checked against the chain balance.
func (r *Rail) CheckConfirm(ctx context.Context, p store.Payment, v store.Vault) (func(tx *store.Tx) error, error) {
	if err := r.CheckPayment(p); err != nil {
		return nil, err
	}
	if p.DestinationAddress == v.Address {
		return nil, &apperr.Error{Code: apperr.ErrValidation, Message: "request validation failed", Fields: map[string]string{"destinationAddress": ownAccount}}
	}
	return r.syncStep(ctx, v)
}

// syncStep reads the vault's chain balance and returns the step that
// brings its ledger account level with it.
func (r *Rail) syncStep(ctx context.Context, v store.Vault) (func(tx *store.Tx) error, error) {
	asset, err := r.Assets.For(v.Currency)
	if err != nil {
		return nil, &apperr.Error{Code: apperr.ErrValidation, Message: "request validation failed", Fields: map[string]string{"currency": err.Error()}}
	}
	mark, err := r.DB.SubmissionMark(ctx, v.ID)
	if err != nil {
		return nil, err
	}
	acct, err := r.readAccount(ctx, v.Address, asset)
	if err != nil {
		return nil, unavailable(err)
	}
	return levelStep(v, acct, mark)
}

// levelStep is the step that brings the vault's ledger account level with
// acct, read after mark.
func levelStep(v store.Vault, acct Account, mark store.SubmissionMark) (func(tx *store.Tx) error, error) {
	cur, _ := money.Lookup(v.Currency)
	minor, _, err := FromStroops(acct.Balance, cur)
	if err != nil {
		// No account holds a negative balance: the server misanswered.
		return nil, unavailable(fmt.Errorf("getLedgerEntries: trustline balance: %w", err))
	}
	return func(tx *store.Tx) error {
		_, _, err := tx.SyncVaultBalance(v.ID, minor, mark)
		return err
	}, nil
}

// SyncVaults brings every live vault level with its account: it follows a
// changeTrust in flight, opens the trustline an existing account lacks, and
// posts balance differences. One vault's trouble does not stop the rest.
func (r *Rail) SyncVaults(ctx context.Context) error {
	vaults, err := r.DB.LiveVaults(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, v := range vaults {
		if err := r.syncVault(ctx, v); err != nil && !errors.Is(err, payout.ErrTransient) {
			errs = append(errs, fmt.Errorf("vault %s: %w", v.ID, err))
		}
	}
	return errors.Join(errs...)
}

func (r *Rail) syncVault(ctx context.Context, v store.VaultWithKey) error {
	if _, err := r.Assets.For(v.Currency); err != nil {
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
	asset, _ := r.Assets.For(v.Currency)
	mark, err := r.DB.SubmissionMark(ctx, v.ID)
	if err != nil {
		return err
	}
	acct, err := r.readAccount(ctx, v.Address, asset)
	if err != nil {
		return err
	}
	if acct.Exists && !acct.Trusts {
		if waits, err := r.trustlineWaits(ctx, v.ID, acct); err != nil || waits {
			return err
		}
		return r.openTrustline(ctx, v, asset, acct, mark)
	}
	// The mark and account just read serve the balance too: no second read.
	step, err := levelStep(v.Vault, acct, mark)
	if err != nil {
		return err
	}
	return r.DB.WithTx(ctx, step, store.WithActor("system:chain_sync", ""))
}

// openTrustline signs a changeTrust for the vault's asset, stores it like
// a payout's envelope (it takes the account's next sequence number), and
// sends it; the next sync follows it to its end.
func (r *Rail) openTrustline(ctx context.Context, v store.VaultWithKey, asset txnbuild.CreditAsset, acct Account, mark store.SubmissionMark) error {
	_, seed, err := r.vaultKey(ctx, v.ID)
	if err != nil {
		return err
	}
	ct, err := asset.ToChangeTrustAsset()
	if err != nil {
		return err
	}
	env, err := Signed(r.Passphrase, seed, acct.Seq+1, r.Now().Add(r.txTimeout()), nil, &txnbuild.ChangeTrust{Line: ct, Limit: txnbuild.MaxTrustlineLimit})
	if err != nil {
		return err
	}
	sub := store.Submission{Hash: env.Hash, VaultID: v.ID, Kind: store.SubmissionChangeTrust, State: store.SubmissionOpen, Seq: env.Seq, Envelope: env.XDR, ValidUntil: env.ValidUntil}
	err = r.DB.WithTx(ctx, func(tx *store.Tx) error {
		if err := tx.RecordSubmission(sub, mark); err != nil {
			return err
		}
		if err := tx.RecordTrustlineAttempt(v.ID, env.Hash, acct.Native); err != nil {
			return err
		}
		return tx.Audit(v.UserID, v.Livemode, "vault.trustline_submitted", "vault", v.ID, map[string]any{"asset": asset.Code + ":" + asset.Issuer, "hash": env.Hash})
	}, store.WithActor("system:chain_sync", ""))
	if errors.Is(err, store.ErrVaultBusy) {
		return nil
	}
	if err != nil {
		return err
	}
	return r.followTrust(ctx, sub)
}

// followTrust sends or follows the vault's changeTrust and records its end.
func (r *Rail) followTrust(ctx context.Context, sub store.Submission) error {
	fin, err := r.follow(ctx, sub)
	if err != nil || fin == nil {
		return err
	}
	if fin.state != store.SubmissionSuccess {
		r.Log.Warn("stellar: the vault's trustline was not opened", "vault", sub.VaultID, "result", Explain(fin.code))
	}
	return r.DB.WithTx(ctx, func(tx *store.Tx) error {
		return tx.FinishSubmission(sub.Hash, fin.state, fin.code, fin.ledger, fin.fee)
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
	acct, err := r.readAccount(ctx, v.Address, asset)
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
