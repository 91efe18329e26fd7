package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/payoutd/payoutd/apperr"
)

// Movement directions, and the kind of a deposit made through the sandbox
// API (on the live rail the kind is the chain event's name: transfer,
// mint, burn, clawback).
const (
	MovementIn      = "in"
	MovementOut     = "out"
	MovementSandbox = "sandbox"
)

// EventDepositReceived is emitted when a deposit is booked.
const EventDepositReceived = "deposit.received"

// Movement is one movement of a vault's asset, recorded once. An incoming
// one is a deposit.
type Movement struct {
	ID        string
	VaultID   string
	UserID    string
	Livemode  bool
	EventID   string // the RPC's event id; "" for a sandbox deposit
	Direction string
	Kind      string
	// Counterparty is the other side: the sender of a deposit, the
	// receiver of an outgoing transfer (a G… account, or a claimable
	// balance or pool address); the asset's issuer for a mint or burn.
	Counterparty string
	MuxedID      string // the counterparty's muxed id, when it has one
	Amount       int64  // minor units of Currency (dust below one dropped)
	Stroops      int64  // the exact amount on chain (0 in the sandbox)
	Currency     string
	TxHash       string
	Ledger       int64
	ClosedAt     time.Time
	Memo         string
	// PaymentID is the payout whose transaction an outgoing movement is.
	PaymentID string
	// OutsideAt is when an outgoing movement no payout explains was found;
	// AcceptedAt when an operator's release booked it as a withdrawal
	// outside payoutd.
	OutsideAt  *time.Time
	AcceptedAt *time.Time
	CreatedAt  time.Time
}

// Unexplained reports an outgoing movement that no payout explains and no
// operator has accepted.
func (m Movement) Unexplained() bool {
	return m.Direction == MovementOut && m.PaymentID == "" && m.AcceptedAt == nil
}

const movementCols = `id, vault_id, user_id, livemode, coalesce(event_id, ''), direction, kind, counterparty, muxed_id, amount, stroops,
	currency, tx_hash, ledger, closed_at, memo, coalesce(payment_id, ''), outside_at, accepted_at, created_at`

func scanMovement(row interface{ Scan(...any) error }) (Movement, error) {
	var m Movement
	var closed, created int64
	var outside, accepted sql.NullInt64
	err := row.Scan(&m.ID, &m.VaultID, &m.UserID, &m.Livemode, &m.EventID, &m.Direction, &m.Kind, &m.Counterparty, &m.MuxedID,
		&m.Amount, &m.Stroops, &m.Currency, &m.TxHash, &m.Ledger, &closed, &m.Memo, &m.PaymentID, &outside, &accepted, &created)
	m.ClosedAt, m.CreatedAt, m.OutsideAt, m.AcceptedAt = fromMS(closed), fromMS(created), nullMS(outside), nullMS(accepted)
	return m, err
}

// RecordMovement stores m unless a movement of the same chain event is
// already recorded for the vault; recorded says whether it was stored now
// (an event read again after a restart or a restore records nothing). A
// deposit's id starts dep_, any other movement's mov_.
func (g MovementsTx) RecordMovement(m *Movement) (recorded bool, err error) {
	tx := g.tx
	if m.ID == "" {
		prefix := "mov"
		if m.Direction == MovementIn {
			prefix = "dep"
		}
		m.ID = NewID(prefix)
	}
	m.CreatedAt = tx.now
	var event, payment any
	if m.EventID != "" {
		event = m.EventID
	}
	if m.PaymentID != "" {
		payment = m.PaymentID
	}
	var outside any
	if m.OutsideAt != nil {
		outside = ms(*m.OutsideAt)
	}
	res, err := tx.exec(`INSERT INTO vault_movements (id, vault_id, user_id, livemode, event_id, direction, kind, counterparty, muxed_id,
		amount, stroops, currency, tx_hash, ledger, closed_at, memo, payment_id, outside_at, created_at)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`,
		m.ID, m.VaultID, m.UserID, m.Livemode, event, m.Direction, m.Kind, m.Counterparty, m.MuxedID, m.Amount, m.Stroops,
		m.Currency, m.TxHash, m.Ledger, ms(m.ClosedAt), m.Memo, payment, outside, ms(tx.now))
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// BookDeposit posts a recorded deposit to its vault and the ledger, with
// its audit row and deposit.received event, in tx.
func (g MovementsTx) BookDeposit(m Movement, description string) error {
	tx := g.tx
	v, err := scanVault(tx.queryRow("SELECT "+vaultCols+" FROM vaults WHERE id = ?", m.VaultID))
	if err != nil {
		return notFound(err, apperr.ErrWalletNotFound, "wallet")
	}
	if m.Amount <= 0 {
		return nil // dust: recorded, nothing to book in minor units
	}
	if err := tx.creditVault(v, m.Amount, description); err != nil {
		return err
	}
	data := DepositData(m)
	if err := tx.Audit(m.UserID, m.Livemode, EventDepositReceived, "deposit", m.ID, data); err != nil {
		return err
	}
	return tx.emit(m.UserID, m.Livemode, EventDepositReceived, m.ID, data)
}

// ExplainMovements ties the vault's outgoing movements of transaction hash
// to the payout it paid.
func (g MovementsTx) ExplainMovements(vaultID, hash, paymentID string) error {
	tx := g.tx
	_, err := tx.exec("UPDATE vault_movements SET payment_id = ? WHERE vault_id = ? AND tx_hash = ? AND direction = 'out' AND payment_id IS NULL",
		paymentID, vaultID, hash)
	return err
}

// UnexplainedMovements lists the vault's outgoing movements that no payout
// explains and no operator accepted, oldest first.
func (g Movements) UnexplainedMovements(ctx context.Context, vaultID string) ([]Movement, error) {
	db := g.db
	return scanMovements(db.r.QueryContext(ctx, "SELECT "+movementCols+" FROM vault_movements "+unexplainedWhere, vaultID))
}

const unexplainedWhere = "WHERE vault_id = ? AND direction = 'out' AND payment_id IS NULL AND accepted_at IS NULL ORDER BY ledger, id"

// UnexplainedMovements is UnexplainedMovements read in the transaction.
func (g MovementsTx) UnexplainedMovements(vaultID string) ([]Movement, error) {
	tx := g.tx
	return scanMovements(tx.query("SELECT "+movementCols+" FROM vault_movements "+unexplainedWhere, vaultID))
}

// AcceptMovements books each of the vault's unexplained outgoing movements
// as a withdrawal outside payoutd, as a person releasing its quarantine
// accepted them, and returns them.
func (g MovementsTx) AcceptMovements(vaultID, quarantineID string) ([]Movement, error) {
	tx := g.tx
	list, err := tx.Movements().UnexplainedMovements(vaultID)
	if err != nil {
		return nil, err
	}
	for _, m := range list {
		v, err := scanVault(tx.queryRow("SELECT "+vaultCols+" FROM vaults WHERE id = ?", vaultID))
		if err != nil {
			return nil, err
		}
		if m.Amount > 0 {
			if err := tx.debitVault(v, m.Amount, "Stellar withdrawal outside payoutd ("+m.TxHash+"), accepted on release of quarantine "+quarantineID); err != nil {
				return nil, err
			}
		}
		if _, err := tx.exec("UPDATE vault_movements SET accepted_at = ? WHERE id = ?", ms(tx.now), m.ID); err != nil {
			return nil, err
		}
	}
	return list, nil
}

// MovementsOfHash lists the movements recorded for a transaction.
func (g Movements) MovementsOfHash(ctx context.Context, hash string) ([]Movement, error) {
	db := g.db
	return scanMovements(db.r.QueryContext(ctx, "SELECT "+movementCols+" FROM vault_movements WHERE tx_hash = ? ORDER BY id", hash))
}

// MovementTotals sums, in stroops, the vault's movements recorded from
// the chain in ledgers after after and up to through (0: all).
func (g MovementsTx) MovementTotals(vaultID string, after, through int64) (in, out int64, err error) {
	tx := g.tx
	err = tx.queryRow(`SELECT coalesce(sum(CASE direction WHEN 'in' THEN stroops END), 0), coalesce(sum(CASE direction WHEN 'out' THEN stroops END), 0)
		FROM vault_movements WHERE vault_id = ? AND event_id IS NOT NULL AND ledger > ? AND (? = 0 OR ledger <= ?)`,
		vaultID, after, through, through).Scan(&in, &out)
	return in, out, err
}

func scanMovements(rows *sql.Rows, err error) ([]Movement, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Movement{}
	for rows.Next() {
		m, err := scanMovement(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}

// FindDeposit returns the user's deposit; another user's is not found.
func (g Movements) FindDeposit(ctx context.Context, userID, id string) (Movement, error) {
	db := g.db
	m, err := scanMovement(db.r.QueryRowContext(ctx, "SELECT "+movementCols+" FROM vault_movements WHERE id = ? AND user_id = ? AND direction = 'in'", id, userID))
	if errors.Is(err, sql.ErrNoRows) {
		return m, apperr.Errorf(apperr.ErrNotFound, "deposit not found")
	}
	return m, err
}
