package store

import (
	"context"
	"database/sql"
	"strings"
)

// How a payout was tied to a deposit it pays out.
const (
	DepositNamed      = "named"             // the payout named it (depositIds)
	DepositInvoiceRef = "invoice reference" // its memo is the payout's invoice reference
)

// LinkedDeposit is a deposit a payout pays out, and how they were tied.
type LinkedDeposit struct {
	Movement
	MatchedBy string
}

// LinkDeposits records that the payout pays out the deposits.
func (g VaultsTx) LinkDeposits(paymentID string, depositIDs []string, matchedBy string) error {
	tx := g.tx
	for _, id := range depositIDs {
		if _, err := tx.exec("INSERT INTO payment_deposits (payment_id, deposit_id, matched_by) VALUES (?,?,?) ON CONFLICT DO NOTHING",
			paymentID, id, matchedBy); err != nil {
			return err
		}
	}
	return nil
}

// UserDeposits reads the user's deposits with these ids; unknown ids and
// other users' deposits are left out.
func (g VaultsTx) UserDeposits(userID string, ids []string) ([]Movement, error) {
	tx := g.tx
	if len(ids) == 0 {
		return nil, nil
	}
	args := []any{userID}
	for _, id := range ids {
		args = append(args, id)
	}
	return scanMovements(tx.query("SELECT "+movementCols+" FROM vault_movements WHERE user_id = ? AND direction = 'in' AND id IN (?"+
		strings.Repeat(",?", len(ids)-1)+") ORDER BY closed_at, id", args...))
}

// LinkDepositsByMemo ties the payout, unless it named deposits of its
// own, to the vault's deposits whose memo is memo (any case) and that no
// payout pays out yet.
func (g VaultsTx) LinkDepositsByMemo(paymentID, vaultID, memo string) error {
	tx := g.tx
	_, err := tx.exec(`INSERT INTO payment_deposits (payment_id, deposit_id, matched_by)
		SELECT ?1, id, ?4 FROM vault_movements WHERE vault_id = ?2 AND direction = 'in' AND memo != '' AND lower(memo) = lower(?3)
		AND id NOT IN (SELECT deposit_id FROM payment_deposits) AND NOT EXISTS (SELECT 1 FROM payment_deposits WHERE payment_id = ?1)`,
		paymentID, vaultID, memo, DepositInvoiceRef)
	return err
}

const linkedCols = "m.id, m.vault_id, m.user_id, m.livemode, coalesce(m.event_id, ''), m.direction, m.kind, m.counterparty, m.muxed_id, " +
	"m.amount, m.stroops, m.currency, m.tx_hash, m.ledger, m.closed_at, m.memo, coalesce(m.payment_id, ''), m.outside_at, m.accepted_at, " +
	"m.created_at, pd.matched_by, pd.payment_id"

// depositsOf reads the deposits each of the payouts pays out, by payout.
func depositsOf(query func(string, ...any) (*sql.Rows, error), paymentIDs []string) (map[string][]LinkedDeposit, error) {
	out := map[string][]LinkedDeposit{}
	if len(paymentIDs) == 0 {
		return out, nil
	}
	args := make([]any, len(paymentIDs))
	for i, id := range paymentIDs {
		args[i] = id
	}
	rows, err := query("SELECT "+linkedCols+` FROM payment_deposits pd JOIN vault_movements m ON m.id = pd.deposit_id
		WHERE pd.payment_id IN (?`+strings.Repeat(",?", len(paymentIDs)-1)+") ORDER BY m.closed_at, m.id", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var d LinkedDeposit
		var paymentID string
		if d.Movement, err = scanMovement(rowWith{rows, []any{&d.MatchedBy, &paymentID}}); err != nil {
			return nil, err
		}
		out[paymentID] = append(out[paymentID], d)
	}
	return out, rows.Err()
}

// PaymentDeposits lists the deposits the payout pays out.
func (g Vaults) PaymentDeposits(ctx context.Context, paymentID string) ([]LinkedDeposit, error) {
	db := g.db
	m, err := depositsOf(func(q string, a ...any) (*sql.Rows, error) { return db.r.QueryContext(ctx, q, a...) }, []string{paymentID})
	return m[paymentID], err
}

// LinkedDeposits lists the deposits the payout pays out, in tx.
func (g VaultsTx) LinkedDeposits(paymentID string) ([]LinkedDeposit, error) {
	tx := g.tx
	m, err := depositsOf(tx.query, []string{paymentID})
	return m[paymentID], err
}
