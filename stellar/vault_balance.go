package stellar

import (
	"context"

	"github.com/payoutd/payoutd/store"
)

// sync compares the vault's books with its balance as read after mark
// (store's SyncVault) in its own transaction: the comparison of balances
// that starts a vault's track and stands in for its events while the RPC
// server serves none. It returns the vault's quarantine if it has one,
// found or opened now (naming the unknown transactions it can find).
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
