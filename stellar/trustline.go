package stellar

import (
	"context"
	"errors"

	"github.com/stellar/go-stellar-sdk/txnbuild"

	"github.com/payoutd/payoutd/store"
)

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
		if err := tx.Chain().RecordSubmission(sub, mark); err != nil {
			return err
		}
		if err := tx.Chain().RecordTrustlineAttempt(v.ID, env.Hash, acct.Native); err != nil {
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
		return tx.Chain().FinishSubmission(sub.Hash, *end)
	}, store.WithActor("system:chain_sync", ""))
}
