package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// RecordRateAsOf keeps the as-of time of the rate a payout was valued at.
func (tx *Tx) RecordRateAsOf(paymentID, rate string, asOf time.Time) error {
	_, err := tx.ExecContext(tx.ctx, "INSERT INTO settlement_rates (payment_id, rate, as_of, created_at) VALUES (?,?,?,?)",
		paymentID, rate, ms(asOf), ms(tx.now))
	return err
}

// RateAsOf is the as-of time of the rate the payout was valued at, if one
// was recorded (live payouts).
func (db *DB) RateAsOf(ctx context.Context, paymentID string) (time.Time, bool, error) {
	var at int64
	err := db.QueryRowContext(ctx, "SELECT as_of FROM settlement_rates WHERE payment_id = ?", paymentID).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, false, nil
	}
	return fromMS(at), err == nil, err
}

// ValueSettlement gives a payout that settled while no fresh rate was in
// hand (CONFIRMED, amount_inr NULL) its INR value, and books the
// settlement: a guarded UPDATE, so a second run finds it valued and fails.
func (tx *Tx) ValueSettlement(p *Payment, inr int64, rate string, asOf time.Time) error {
	res, err := tx.ExecContext(tx.ctx, `UPDATE payments SET amount_inr = ?, settlement_rate = ?, updated_at = ?
		WHERE id = ? AND status = ? AND amount_inr IS NULL`, inr, rate, ms(tx.now), p.ID, StatusConfirmed)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return Errorf(ErrInvalidState, "payment %s is no longer waiting for its INR value", p.ID)
	}
	p.AmountINR, p.SettlementRate, p.UpdatedAt = &inr, rate, tx.now
	if err := tx.RecordRateAsOf(p.ID, rate, asOf); err != nil {
		return err
	}
	if err := tx.Audit(p.UserID, p.Livemode, "payment.valued", "payment", p.ID,
		map[string]any{"amountInrPaise": inr, "rate": rate, "rateAsOf": asOf.UTC().Format(time.RFC3339)}); err != nil {
		return err
	}
	return tx.PostSettlement(*p)
}
