package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/payoutd/payoutd/apperr"
)

// RecordRateAsOf keeps the as-of time of the rate a payout was valued at,
// in the transaction that books its settlement (Settle, ValueSettlement).
func (g LedgerTx) RecordRateAsOf(paymentID, rate string, asOf time.Time) error {
	tx := g.tx
	_, err := tx.exec("INSERT INTO settlement_rates (payment_id, rate, as_of, created_at) VALUES (?,?,?,?)",
		paymentID, rate, ms(asOf), ms(tx.now))
	if err == nil {
		tx.rateAsOf = recordedRate{paymentID: paymentID, asOf: asOf.UTC().Truncate(time.Millisecond)}
	}
	return err
}

// recordedRate is the rate as-of time this transaction recorded, so that
// valuing the payout for GST in the same transaction need not read it back.
type recordedRate struct {
	paymentID string
	asOf      time.Time
}

// RateAsOf is the as-of time of the rate the payout was valued at, if one
// was recorded (live payouts).
func (g Ledger) RateAsOf(ctx context.Context, paymentID string) (time.Time, bool, error) {
	db := g.db
	var at int64
	err := db.queryRow(ctx, "SELECT as_of FROM settlement_rates WHERE payment_id = ?", paymentID).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, false, nil
	}
	return fromMS(at), err == nil, err
}

// SettleAwaitingValue records a live payout the network settled at
// settledAt while no INR rate as of then was in hand: CONFIRMED with no INR value, its amount still
// reserved in the vault, nothing booked. The vault row and its ledger
// account stay equal; the chain is ahead of both by the payout until
// ValueSettlement books it (the chain sync counts it as gone).
func (g LedgerTx) SettleAwaitingValue(p *Payment, settledAt time.Time) error {
	tx := g.tx
	settledAt = settledAt.UTC().Truncate(time.Millisecond)
	return tx.transition(p, StatusConfirmed, func(n *Payment) { n.SettledAt = &settledAt })
}

// ValueSettlement gives a payout settled awaiting its value (CONFIRMED,
// amount_inr NULL) its INR value, moves its reservation out of the vault
// and books the settlement, as Settle does at once for a payout settled
// with a fresh rate. A guarded UPDATE: a second run finds it valued.
func (g LedgerTx) ValueSettlement(p *Payment, inr int64, rate string, asOf time.Time) error {
	tx := g.tx
	res, err := tx.exec(`UPDATE payments SET amount_inr = ?, settlement_rate = ?, reserved = 0, updated_at = ?,
		version = version + 1, attention = '', attention_at = NULL WHERE id = ? AND status = ? AND amount_inr IS NULL`, inr, rate, ms(tx.now), p.ID, StatusConfirmed)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return apperr.Errorf(apperr.ErrInvalidState, "payment %s is no longer waiting for its INR value", p.ID)
	}
	reserved := p.Reserved
	p.AmountINR, p.SettlementRate, p.Reserved, p.UpdatedAt, p.Version = &inr, rate, 0, tx.now, p.Version+1
	p.Attention, p.AttentionAt = "", nil
	if reserved > 0 {
		if err := tx.adjustVault(p.VaultID, -reserved, -reserved); err != nil {
			return err
		}
	}
	if err := tx.Ledger().RecordRateAsOf(p.ID, rate, asOf); err != nil {
		return err
	}
	if err := tx.Audit(p.UserID, p.Livemode, "payment.valued", "payment", p.ID,
		map[string]any{"amountInrPaise": inr, "rate": rate, "rateAsOf": asOf.UTC().Format(time.RFC3339)}); err != nil {
		return err
	}
	return tx.postSettlement(*p)
}

// awaitingValue is what the vault's payouts settled on chain but not yet
// valued hold: gone from the account, still in the vault row.
func (tx *Tx) awaitingValue(vaultID string) (int64, error) {
	var n int64
	err := tx.queryRow(`SELECT coalesce(sum(amount), 0) FROM payments
		WHERE vault_id = ? AND status = ? AND amount_inr IS NULL`, vaultID, StatusConfirmed).Scan(&n)
	return n, err
}
