package store

import (
	"context"

	"github.com/payoutd/payoutd/apperr"
)

// ConfirmInput is what POST /payments/confirm must match.
type ConfirmInput struct {
	ID                 string
	DestinationAddress string
	Amount             int64
	Currency           string
	VaultID            string
	// Sealer opens the vault's signing key: a key that no longer opens
	// (master key replaced) cannot sign, so the vault cannot pay.
	Sealer *Sealer
	// Read, when set, is the caller's payment as a read connection saw it
	// before the transaction, which then need not read it on the write
	// connection: what confirm checks besides the status never changes
	// after initiate, and the status is checked again by the transition's
	// guarded UPDATE, so a payment confirmed meanwhile still fails.
	Read *Payment
	// ReadVault, when set, is the funding vault with its sealed key as a
	// read connection saw it (see DB.VaultWithKey): owner, currency and key
	// do not change under a confirm, and the balance is checked by the
	// reserving UPDATE itself.
	ReadVault *VaultWithKey
	// Allow, when set, is the caller's last word on the payout once it
	// matches the confirmation (the KYC rule lives with the operations).
	Allow func(tx *Tx, p Payment) error
}

// VaultWithKey is a vault row with its sealed signing key.
type VaultWithKey struct {
	Vault
	Sealed []byte
}

// ConfirmPayment checks the confirmation against the initiated payment and
// the funding vault, reserves the funds and moves the payment to
// COMPLIANCE_CHECK. The caller queues the pipeline job in the same tx.
func (g PaymentsTx) ConfirmPayment(userID string, in ConfirmInput) (Payment, error) {
	tx := g.tx
	if r := in.Read; r != nil && r.ID == in.ID && r.UserID == userID {
		p, err := tx.confirm(userID, in, *r)
		if err != nil {
			// A confirm that fails on a copy read before the transaction
			// reports what it would have reported reading inside it: a
			// payment confirmed meanwhile is ERR_INVALID_STATE, not, say,
			// short of funds because its own amount is already reserved.
			if now, ferr := tx.Payments().FindPayment(userID, in.ID); ferr == nil && now.Status != r.Status {
				return tx.confirm(userID, in, now)
			}
		}
		return p, err
	}
	p, err := tx.Payments().FindPayment(userID, in.ID)
	if err != nil {
		return Payment{}, err
	}
	return tx.confirm(userID, in, p)
}

// confirm is ConfirmPayment on p, the payment as read.
func (tx *Tx) confirm(userID string, in ConfirmInput, p Payment) (Payment, error) {
	if p.Status != StatusInitiated {
		return Payment{}, apperr.Errorf(apperr.ErrInvalidState, "payment %s is %s, not INITIATED", p.ID, p.Status)
	}
	mismatch := map[string]string{}
	if in.DestinationAddress != p.DestinationAddress {
		mismatch["destinationAddress"] = "does not match the initiated payment"
	}
	if in.Currency != p.Currency {
		mismatch["currency"] = "does not match the initiated payment"
	} else if in.Amount != p.Amount {
		mismatch["amount"] = "does not match the initiated payment"
	}
	if len(mismatch) > 0 {
		return Payment{}, &apperr.Error{Code: apperr.ErrConfirmMismatch, Message: "confirmation does not match the initiated payment", Fields: mismatch}
	}
	if in.Allow != nil {
		if err := in.Allow(tx, p); err != nil {
			return Payment{}, err
		}
	}
	var vk VaultWithKey
	if r := in.ReadVault; r != nil && r.ID == in.VaultID && r.UserID == userID {
		vk = *r
	} else {
		var err error
		if vk, err = scanVaultWithKey(tx.queryRow(vaultWithKeySQL, in.VaultID, userID)); err != nil {
			return Payment{}, err
		}
	}
	v, sealed := vk.Vault, vk.Sealed
	if v.Currency != p.Currency {
		return Payment{}, &apperr.Error{Code: apperr.ErrCurrencyMismatch, Message: "vault currency " + v.Currency + " does not match payment currency " + p.Currency,
			Fields: map[string]string{"vaultId": "vault holds " + v.Currency}}
	}
	if !keyOpens(in.Sealer, v.ID, v.Address, sealed) {
		return Payment{}, apperr.Errorf(apperr.ErrVaultNoKey, "vault %s has no usable signing key", v.ID)
	}
	p.VaultID = v.ID
	if err := tx.reserveIn(v.ID, &p); err != nil {
		return Payment{}, err
	}
	if err := tx.Payments().Transition(&p, StatusComplianceCheck, nil); err != nil {
		return Payment{}, err
	}
	return p, nil
}

const vaultWithKeySQL = "SELECT " + vaultCols + ", key_sealed FROM vaults WHERE id = ? AND user_id = ?"

func scanVaultWithKey(row interface{ Scan(...any) error }) (VaultWithKey, error) {
	var v VaultWithKey
	var err error
	v.Vault, err = scanVault(row, &v.Sealed)
	return v, notFound(err, apperr.ErrWalletNotFound, "wallet")
}

// VaultWithKey reads the user's vault and its sealed signing key on a read
// connection (confirm reads it there, off the single writer).
func (g Vaults) VaultWithKey(ctx context.Context, userID, id string) (VaultWithKey, error) {
	db := g.db
	return scanVaultWithKey(db.r.QueryRowContext(ctx, vaultWithKeySQL, id, userID))
}
