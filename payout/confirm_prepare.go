package payout

import (
	"context"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/store"
)

// LiveCheck is the live rail's check of a payout before it is confirmed
// (stellar.Rail): it refuses a payout the rail cannot carry or a network
// out of reach, and otherwise returns the step that, first in the confirm
// transaction, brings the vault's balance level with the chain.
type LiveCheck interface {
	CheckConfirm(ctx context.Context, p store.Payment, v store.Vault) (func(tx *store.Tx) error, error)
}

// RequireLiveRail refuses a live payout when no live rail is configured: a
// clear 400, never a silent success.
func RequireLiveRail(livemode bool, live LiveCheck) error {
	if livemode && live == nil {
		return apperr.Errorf(apperr.ErrLiveNotConfigured, "live payouts need a Stellar RPC server; start payoutd with -stellar-rpc URL (env PAYOUTD_STELLAR_RPC)")
	}
	return nil
}

// PrepareConfirm does what confirming needs before its transaction, for the
// API and the console alike: it refuses a live payout without a live rail,
// reads the payment and the vault on a read connection (off the single
// writer; a failure here is left for the transaction to report), and runs
// the live rail's check, whose step then runs first in the transaction.
func PrepareConfirm(ctx context.Context, db *store.DB, live LiveCheck, livemode bool, userID string, in store.ConfirmInput) (store.ConfirmInput, error) {
	if err := RequireLiveRail(livemode, live); err != nil {
		return in, err
	}
	if p, err := db.Payments().FindPayment(ctx, userID, in.ID); err == nil {
		in.Read = &p
	}
	if v, err := db.Vaults().VaultWithKey(ctx, userID, in.VaultID); err == nil {
		in.ReadVault = &v
	}
	if !livemode || in.Read == nil || in.ReadVault == nil {
		return in, nil
	}
	step, err := live.CheckConfirm(ctx, *in.Read, in.ReadVault.Vault)
	if err != nil {
		return in, err
	}
	in.Allow = func(tx *store.Tx, p store.Payment) error { return step(tx) }
	return in, nil
}
