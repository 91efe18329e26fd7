package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/payoutd/payoutd/apperr"
)

// TaxDay is one maintained aggregate: a user's RECONCILED receipts of one
// kind settled on one IST day. Amounts are paise.
type TaxDay struct {
	Day            string // YYYY-MM-DD in IST
	CrossBorder    bool
	Count          int64
	AmountINR      int64
	IGST18         int64 // Σ IGST18 of each receipt
	FirstSettledAt time.Time
	LastSettledAt  time.Time
}

// TaxDays returns the user's aggregates for the IST days fromDay..toDay,
// both inclusive: at most two rows per day, found by primary key, so a
// year's figures cost the same at ten payments or a million.
func (s *Snapshot) TaxDays(userID, fromDay, toDay string) ([]TaxDay, error) {
	return taxDays(s.ctx, s.q, userID, fromDay, toDay)
}

func taxDays(ctx context.Context, q reader, userID, fromDay, toDay string) ([]TaxDay, error) {
	rows, err := q.QueryContext(ctx, `SELECT day, cross_border, txn_count, amount_inr, igst_18, first_settled_at,
		last_settled_at FROM tax_days WHERE user_id = ? AND day >= ? AND day <= ? ORDER BY day, cross_border`,
		userID, fromDay, toDay)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []TaxDay
	for rows.Next() {
		var d TaxDay
		var first, last int64
		if err := rows.Scan(&d.Day, &d.CrossBorder, &d.Count, &d.AmountINR, &d.IGST18, &first, &last); err != nil {
			return nil, err
		}
		d.FirstSettledAt, d.LastSettledAt = fromMS(first), fromMS(last)
		out = append(out, d)
	}
	return out, rows.Err()
}

// TaxRefreshedAt is when the tax job last refreshed the user's aggregates;
// ok is false if it never has (the user has no reconciled receipt yet).
func (s *Snapshot) TaxRefreshedAt(userID string) (at time.Time, ok bool, err error) {
	var v int64
	err = s.q.QueryRowContext(s.ctx, "SELECT refreshed_at FROM tax_refresh_state WHERE user_id = ?", userID).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, false, nil
	}
	return fromMS(v), err == nil, err
}

// Profile reads the user's profile in the snapshot; a user without a
// profile row gets an empty one (no GSTIN, no LUT, no PAN).
func (s *Snapshot) Profile(userID string) (Profile, error) {
	p, err := scanProfile(s.q.QueryRowContext(s.ctx, "SELECT "+profileCols+" FROM profiles WHERE user_id = ?", userID))
	if apperr.Code(err) == apperr.ErrProfileNotFound {
		return Profile{UserID: userID}, nil
	}
	return p, err
}

// TaxPaymentsOfYear is DB.TaxPaymentsOfYear in the snapshot.
func (s *Snapshot) TaxPaymentsOfYear(userID, fy string) ([]TaxPayment, error) {
	return taxPaymentsOfYear(s.ctx, s.q, userID, fy)
}

// CrossBorderReconciledBetween sums the INR (paise) of the user's RECONCILED
// cross-border receipts settled in [from, before), leaving out one payment
// (through reconciliations_user, for spans shorter than a day that
// tax_days cannot split).
func (s *Snapshot) CrossBorderReconciledBetween(userID string, from, before time.Time, leaveOut string) (int64, error) {
	var sum int64
	err := s.q.QueryRowContext(s.ctx, `SELECT coalesce(sum(r.amount_inr), 0) FROM reconciliations r JOIN payments p ON p.id = r.payment_id
		WHERE r.user_id = ? AND r.status = 'RECONCILED' AND r.settled_at >= ? AND r.settled_at < ? AND r.payment_id != ?
		AND `+crossBorderOf("p.counterparty_country"), userID, ms(from), ms(before), leaveOut).Scan(&sum)
	return sum, err
}
