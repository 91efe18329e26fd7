package store

import (
	"context"
	"database/sql"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/money"
)

// AddVault creates a SETTLEMENT vault in another currency. A user has at
// most one vault per currency (docs/accounts.md): payouts pick the vault by
// currency, and two would only split a balance.
func (g VaultsTx) AddVault(u User, name, currency string, sealer *Sealer) (Vault, error) {
	tx := g.tx
	var n int
	if err := tx.queryRow("SELECT count(*) FROM vaults WHERE user_id = ? AND currency = ?", u.ID, currency).Scan(&n); err != nil {
		return Vault{}, err
	}
	if n > 0 {
		return Vault{}, apperr.Errorf(apperr.ErrConflict, "a %s vault already exists; a user has one vault per currency", currency)
	}
	if sealer == nil {
		// A vault without a signing key could never pay out; refuse to make one.
		return Vault{}, apperr.Errorf(apperr.ErrVaultNoKey, "no master key is configured to seal the vault's signing key")
	}
	return tx.Vaults().CreateVault(u, name, currency, 0, false, sealer)
}

// FundVault adds amount (minor units, positive) to a sandbox vault from
// outside: a sandbox deposit from "sandbox" with no memo.
func (g VaultsTx) FundVault(userID, vaultID string, amount int64) (Vault, error) {
	tx := g.tx
	if _, err := tx.Vaults().SandboxDeposit(userID, vaultID, amount, "sandbox", ""); err != nil {
		return Vault{}, err
	}
	return tx.Vaults().FindVault(userID, vaultID)
}

// fundLimit keeps a vault's balance within what money.Parse accepts as one
// amount, so sums of balances cannot overflow int64.
func fundLimit(v Vault, amount int64) error {
	cur, ok := money.Lookup(v.Currency)
	if !ok {
		return apperr.Errorf(apperr.ErrCurrencyMismatch, "vault currency %s is unknown", v.Currency)
	}
	limit := money.MaxMajor
	for i := 0; i < cur.Exponent; i++ {
		limit *= 10
	}
	if amount <= 0 || amount > limit-v.Balance {
		return &apperr.Error{Code: apperr.ErrValidation, Message: "request validation failed",
			Fields: map[string]string{"amount": "would take the balance above " + money.Format(limit, cur) + " " + cur.Code}}
	}
	return nil
}

// UsableVaultKeys reports, per vault id of the user, whether its sealed
// signing key opens under the current master key and matches the vault's
// address. Vault.HasKey only says a key is stored; a master key replaced
// since would leave it unusable.
func (g Vaults) UsableVaultKeys(ctx context.Context, userID string, sealer *Sealer) (map[string]bool, error) {
	db := g.db
	rows, err := db.r.QueryContext(ctx, "SELECT id, address, key_sealed FROM vaults WHERE user_id = ?", userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var id, address string
		var sealed sql.RawBytes
		if err := rows.Scan(&id, &address, &sealed); err != nil {
			return nil, err
		}
		out[id] = keyOpens(sealer, id, address, sealed)
	}
	return out, rows.Err()
}
