package store

import (
	"context"
	"time"

	"github.com/payoutd/payoutd/wire"
)

// DepositData is a deposit as the deposit.received event and the API show
// it.
func DepositData(m Movement) map[string]any {
	d := map[string]any{"id": m.ID, "object": "deposit", "vaultId": m.VaultID, "amount": wire.Amount(m.Amount, m.Currency),
		"amountMinor": m.Amount, "currency": m.Currency, "from": m.Counterparty, "memo": m.Memo, "source": depositSource(m),
		"transactionHash": m.TxHash, "ledger": m.Ledger, "ledgerClosedAt": wire.Time(m.ClosedAt), "livemode": m.Livemode,
		"createdAt": wire.Time(m.CreatedAt)}
	if m.MuxedID != "" {
		d["fromMuxedId"] = m.MuxedID
	}
	return d
}

// depositSource says where a deposit was read: the chain, or the sandbox
// API.
func depositSource(m Movement) string {
	if m.Kind == MovementSandbox {
		return "sandbox"
	}
	return "chain"
}

// DepositFilter selects a page of a user's deposits, newest first.
type DepositFilter struct {
	UserID       string
	Livemode     bool
	VaultID      string
	From, To     time.Time // ledger close time (zero: open)
	Counterparty string
	After        string
	Page, Limit  int
}

var depositOrder = keyset{from: "vault_movements", id: "id", keys: []string{"closed_at", "created_at"}}

// ListDeposits returns one page of the user's deposits (and the one after
// it, see pageArgs) with the total matching.
func (g Vaults) ListDeposits(ctx context.Context, f DepositFilter) ([]Movement, int, error) {
	db := g.db
	where, args := "user_id = ? AND livemode = ? AND direction = 'in'", []any{f.UserID, f.Livemode}
	if f.VaultID != "" {
		where += " AND vault_id = ?"
		args = append(args, f.VaultID)
	}
	if !f.From.IsZero() {
		where += " AND closed_at >= ?"
		args = append(args, ms(f.From))
	}
	if !f.To.IsZero() {
		where += " AND closed_at < ?"
		args = append(args, ms(f.To))
	}
	if f.Counterparty != "" {
		where += " AND counterparty = ?"
		args = append(args, f.Counterparty)
	}
	var total int
	if err := db.queryRow(ctx, "SELECT count(*) FROM vault_movements WHERE "+where, args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	if f.After != "" {
		cond, cargs, err := db.afterCursor(ctx, depositOrder, f.After, "user_id = ? AND direction = 'in'", []any{f.UserID})
		if err != nil {
			return nil, 0, err
		}
		where += " AND " + cond
		args = append(args, cargs...)
	}
	out, err := scanMovements(db.r.QueryContext(ctx, "SELECT "+movementCols+" FROM vault_movements WHERE "+where+depositOrder.orderBy()+
		" LIMIT ? OFFSET ?", append(args, pageArgs(f.Page, f.Limit)...)...))
	return out, total, err
}

// RecentDeposits lists the user's newest deposits (the console's Home and
// vault pages), of one vault when vaultID is not "".
func (g Vaults) RecentDeposits(ctx context.Context, userID string, livemode bool, vaultID string, n int) ([]Movement, error) {
	db := g.db
	out, _, err := db.Vaults().ListDeposits(ctx, DepositFilter{UserID: userID, Livemode: livemode, VaultID: vaultID, Page: 1, Limit: n})
	if len(out) > n {
		out = out[:n]
	}
	return out, err
}

// SandboxDeposit records and books a deposit a sandbox user makes to one
// of their vaults through the API (the server offers it to sandbox keys
// only; tests and the bench fund live books with it too): the same record
// a live deposit read from the chain is, with the sender and memo given
// and no transaction.
func (g VaultsTx) SandboxDeposit(userID, vaultID string, amount int64, from, memo string) (Movement, error) {
	tx := g.tx
	v, err := tx.Vaults().FindVault(userID, vaultID)
	if err != nil {
		return Movement{}, err
	}
	if err := fundLimit(v, amount); err != nil {
		return Movement{}, err
	}
	m := Movement{VaultID: v.ID, UserID: userID, Livemode: v.Livemode, Direction: MovementIn, Kind: MovementSandbox, Counterparty: from,
		Amount: amount, Currency: v.Currency, ClosedAt: tx.now, Memo: memo}
	if _, err := tx.Movements().RecordMovement(&m); err != nil {
		return m, err
	}
	return m, tx.Movements().BookDeposit(m, "Sandbox deposit")
}
