package store

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"database/sql"
	"errors"
	"time"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/strkey"
)

// Vault is a funding wallet in one currency. Available = Balance - Reserved.
type Vault struct {
	ID        string
	UserID    string
	Livemode  bool
	Name      string
	Type      string
	Currency  string
	Balance   int64
	Reserved  int64
	Address   string
	HasKey    bool
	IsDefault bool
	CreatedAt time.Time
}

// Available is what a new payout can still reserve.
func (v Vault) Available() int64 { return v.Balance - v.Reserved }

const vaultCols = `id, user_id, livemode, name, vault_type, currency, balance, reserved, address, key_sealed IS NOT NULL, is_default, created_at`

// scanVault reads vaultCols, then any columns the query selected after
// them into extra.
func scanVault(row interface{ Scan(...any) error }, extra ...any) (Vault, error) {
	var v Vault
	var created int64
	err := row.Scan(append([]any{&v.ID, &v.UserID, &v.Livemode, &v.Name, &v.Type, &v.Currency, &v.Balance, &v.Reserved,
		&v.Address, &v.HasKey, &v.IsDefault, &created}, extra...)...)
	v.CreatedAt = fromMS(created)
	return v, err
}

// CreateVault makes a SETTLEMENT vault with a fresh Stellar keypair whose
// secret is sealed under the master key.
func (g VaultsTx) CreateVault(u User, name, currency string, balance int64, isDefault bool, sealer *Sealer) (Vault, error) {
	tx := g.tx
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return Vault{}, err
	}
	v := Vault{
		ID: NewID("vlt"), UserID: u.ID, Livemode: u.Livemode, Name: name, Type: "SETTLEMENT",
		Currency: currency, Balance: balance, Address: strkey.EncodePublicKey(pub), HasKey: sealer != nil,
		IsDefault: isDefault, CreatedAt: tx.now,
	}
	var sealed []byte
	if sealer != nil {
		sealed = sealer.Seal(priv.Seed(), []byte(v.ID))
	}
	_, err = tx.exec(`INSERT INTO vaults (id, user_id, livemode, name, vault_type, currency, balance, reserved, address, key_sealed, is_default, created_at)
		VALUES (?,?,?,?,?,?,0,0,?,?,?,?)`, v.ID, v.UserID, v.Livemode, v.Name, v.Type, v.Currency, v.Address, sealed, v.IsDefault, ms(tx.now))
	if err != nil {
		return Vault{}, err
	}
	if _, err := tx.ledgerAccount(u.ID, u.Livemode, AccountVault, currency, v.ID); err != nil {
		return Vault{}, err
	}
	if err := tx.Audit(u.ID, u.Livemode, "vault.created", "vault", v.ID, map[string]any{"currency": currency}); err != nil {
		return Vault{}, err
	}
	if balance > 0 {
		// The opening balance comes in from outside like any funding, so the
		// vault's ledger account mirrors its balance from the first posting.
		if err := tx.creditVault(v, balance, "Opening balance"); err != nil {
			return Vault{}, err
		}
	}
	return v, nil
}

// FindVault returns the user's vault by id; another user's vault is not found.
func (g VaultsTx) FindVault(userID, id string) (Vault, error) {
	tx := g.tx
	v, err := scanVault(tx.queryRow("SELECT "+vaultCols+" FROM vaults WHERE id = ? AND user_id = ?", id, userID))
	return v, notFound(err, apperr.ErrWalletNotFound, "wallet")
}

// FindVault reads a vault outside a transaction.
func (g Vaults) FindVault(ctx context.Context, userID, id string) (Vault, error) {
	db := g.db
	v, err := scanVault(db.r.QueryRowContext(ctx, "SELECT "+vaultCols+" FROM vaults WHERE id = ? AND user_id = ?", id, userID))
	return v, notFound(err, apperr.ErrWalletNotFound, "wallet")
}

// DefaultVault returns the user's default vault.
func (g VaultsTx) DefaultVault(userID string) (Vault, error) {
	tx := g.tx
	v, err := scanVault(tx.queryRow("SELECT "+vaultCols+" FROM vaults WHERE user_id = ? AND is_default = 1", userID))
	return v, notFound(err, apperr.ErrWalletNotFound, "default wallet")
}

// ListVaults lists the user's vaults, oldest first.
func (g Vaults) ListVaults(ctx context.Context, userID string) ([]Vault, error) {
	db := g.db
	rows, err := db.r.QueryContext(ctx, "SELECT "+vaultCols+" FROM vaults WHERE user_id = ? ORDER BY created_at, id", userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Vault{}
	for rows.Next() {
		v, err := scanVault(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// adjustVault changes a vault's balance and reservation by deltas; the CHECK
// constraints refuse any change that would overdraw it.
func (tx *Tx) adjustVault(id string, dBalance, dReserved int64) error {
	res, err := tx.exec("UPDATE vaults SET balance = balance + ?, reserved = reserved + ? WHERE id = ?", dBalance, dReserved, id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return sql.ErrNoRows
	}
	return nil
}

// VaultForCurrency returns the user's vault in currency, the default first.
func (g VaultsTx) VaultForCurrency(userID, currency string) (Vault, error) {
	tx := g.tx
	v, err := scanVault(tx.queryRow("SELECT "+vaultCols+` FROM vaults WHERE user_id = ? AND currency = ?
		ORDER BY is_default DESC, created_at LIMIT 1`, userID, currency))
	if errors.Is(err, sql.ErrNoRows) {
		return v, apperr.Errorf(apperr.ErrCurrencyMismatch, "no vault holds %s", currency)
	}
	return v, err
}
