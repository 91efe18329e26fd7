package store

import (
	"database/sql"
	"errors"
	"fmt"

	"github.com/payoutd/payoutd/apperr"
)

// Ledger account kinds.
const (
	AccountVault      = "vault"
	AccountSettlement = "settlement"
	AccountTaxReserve = "tax_reserve"
	AccountFXClearing = "fx_clearing"
	AccountExternal   = "external"
)

// Posting is one leg of a journal transaction; amounts are signed minor
// units, a credit to the account positive.
type Posting struct {
	AccountID string
	Amount    int64
	Currency  string
	// ID is the entry's id; Post makes one when it is empty.
	ID string
}

// LedgerTxn is a journal transaction to post.
type LedgerTxn struct {
	UserID      string
	Livemode    bool
	Kind        string
	PaymentID   string
	Description string
	Postings    []Posting
}

const (
	postingInsert = `INSERT INTO ledger_postings (id, txn_id, account_id, amount, currency, created_at) VALUES `
	postingValues = "(?,?,?,?,?,?)"
	postingArgs   = 6
)

// ErrUnbalanced is returned for postings that do not sum to zero per currency.
var ErrUnbalanced = errors.New("ledger: postings do not sum to zero per currency")

// post writes a balanced journal transaction and moves the account balances
// with it. An unbalanced set is refused before anything is written.
func (tx *Tx) post(t LedgerTxn) (string, error) {
	sums := map[string]int64{}
	for _, p := range t.Postings {
		sums[p.Currency] += p.Amount
	}
	for cur, s := range sums {
		if s != 0 {
			return "", fmt.Errorf("%w (%s off by %d)", ErrUnbalanced, cur, s)
		}
	}
	id := NewID("ltx")
	_, err := tx.exec(`INSERT INTO ledger_txns (id, user_id, livemode, kind, payment_id, description, created_at)
		VALUES (?,?,?,?,?,?,?)`, id, t.UserID, t.Livemode, t.Kind, t.PaymentID, t.Description, ms(tx.now))
	if isUniqueViolation(err) {
		return "", apperr.Errorf(apperr.ErrConflict, "payment %s already has a %s posting", t.PaymentID, t.Kind)
	}
	if err != nil {
		return "", err
	}
	// The postings go in with one statement (log_rows.go says why).
	rows := make([]any, 0, postingArgs*len(t.Postings))
	for _, p := range t.Postings {
		if p.ID == "" {
			p.ID = NewID("je")
		}
		rows = append(rows, p.ID, id, p.AccountID, p.Amount, p.Currency, ms(tx.now))
	}
	if err := insertRows(tx.ctx, tx.x, postingInsert, postingValues, "", postingArgs, rows); err != nil {
		return "", err
	}
	for _, p := range t.Postings {
		tx.moveBalance(p.AccountID, p.Currency, p.Amount) // with the batch (ledger_balances.go)
	}
	return id, nil
}

// ledgerAccount returns the id of an account, creating it on first use.
func (tx *Tx) ledgerAccount(userID string, livemode bool, kind, currency, ref string) (string, error) {
	k := accountKey{userID, livemode, kind, currency, ref}
	if id, ok := tx.accountID(k); ok {
		return id, nil
	}
	var id string
	err := tx.queryRow(`SELECT id FROM ledger_accounts WHERE user_id = ? AND livemode = ? AND kind = ? AND currency = ? AND ref = ?`,
		userID, livemode, kind, currency, ref).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		id = NewID("la")
		_, err = tx.exec(`INSERT INTO ledger_accounts (id, user_id, livemode, kind, currency, ref, created_at)
			VALUES (?,?,?,?,?,?,?)`, id, userID, livemode, kind, currency, ref, ms(tx.now))
	}
	if err != nil {
		return "", err
	}
	tx.learnAccount(k, id)
	return id, nil
}

// creditVault adds money to a vault from the external network, in the vault
// row and the ledger together.
func (tx *Tx) creditVault(v Vault, amount int64, description string) error {
	if amount <= 0 {
		return apperr.Errorf(apperr.ErrValidation, "amount must be positive")
	}
	return tx.moveExternal(v, amount, description, "vault.funded")
}

// moveExternal books money arriving at the vault from outside payoutd
// (delta > 0) or leaving it other than by a payout (delta < 0): the vault
// row, a funding transaction against the external account, and its audit
// row, together.
func (tx *Tx) moveExternal(v Vault, delta int64, description, action string) error {
	if err := tx.adjustVault(v.ID, delta, 0); err != nil {
		return err
	}
	ext, err := tx.ledgerAccount("", v.Livemode, AccountExternal, v.Currency, "")
	if err != nil {
		return err
	}
	acct, err := tx.ledgerAccount(v.UserID, v.Livemode, AccountVault, v.Currency, v.ID)
	if err != nil {
		return err
	}
	_, err = tx.post(LedgerTxn{UserID: v.UserID, Livemode: v.Livemode, Kind: "funding", Description: description,
		Postings: []Posting{{AccountID: ext, Amount: -delta, Currency: v.Currency}, {AccountID: acct, Amount: delta, Currency: v.Currency}}})
	if err != nil {
		return err
	}
	return tx.Audit(v.UserID, v.Livemode, action, "vault", v.ID, map[string]any{"amount": max(delta, -delta), "currency": v.Currency})
}
