package store

import (
	"database/sql"
	"errors"
	"time"

	"github.com/payoutd/payoutd/india"
)

// IGSTPercent is the IGST rate a cross-border service receipt attracts when no
// valid LUT covers it (DESIGN.md §7; facts/india.md §3 marks 18% for IT and
// consulting UNCONFIRMED).
const IGSTPercent = 18

// IGST18 is 18% of paise, half-up to the paisa. It is charged per payment
// (one invoice), as GST is, and the aggregates add the rounded amounts.
func IGST18(paise int64) int64 { return (paise*IGSTPercent + 50) / 100 }

// taxBucket accumulates one tax_days row.
type taxBucket struct {
	count, amount, igst int64
	first, last         int64
}

func (b *taxBucket) add(amount, settled int64) {
	if b.count == 0 || settled < b.first {
		b.first = settled
	}
	if settled > b.last {
		b.last = settled
	}
	b.count++
	b.amount += amount
	b.igst += IGST18(amount)
}

// taxDayKey names a tax_days row of one user.
type taxDayKey struct {
	day         string
	crossBorder bool
}

// istDay is the Indian calendar day of a stored timestamp; the triggers in
// schema.sql compute the same with date(ms/1000 + 19800, 'unixepoch').
func istDay(settledMS int64) string {
	return fromMS(settledMS).In(india.IST).Format(time.DateOnly)
}

// RefreshTaxFigures rebuilds the user's maintained tax aggregates (tax_days)
// from RECONCILED reconciliations only. It recomputes each day a
// reconciliation has touched since the last refresh (tax_dirty_days, marked by
// triggers in the reconciliation's transaction) from scratch, or every day on
// a user's first refresh, so running it twice changes nothing.
func (tx *Tx) RefreshTaxFigures(userID string) error {
	var refreshed int64
	err := tx.QueryRowContext(tx.ctx, "SELECT refreshed_at FROM tax_refresh_state WHERE user_id = ?", userID).Scan(&refreshed)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		err = tx.rebuildAllTaxDays(userID)
	case err == nil:
		err = tx.rebuildDirtyTaxDays(userID)
	}
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(tx.ctx, `INSERT INTO tax_refresh_state (user_id, refreshed_at) VALUES (?, ?)
		ON CONFLICT (user_id) DO UPDATE SET refreshed_at = excluded.refreshed_at`, userID, ms(tx.now))
	return err
}

// reconciledReceipts is the source of every tax figure: reconciled rows with
// the INR actually credited (the ledger amount the reconciliation matched)
// and whether the payout was cross-border (DESIGN.md §5). The range uses the
// reconciliations_user index (user_id, status, settled_at).
const reconciledReceipts = `SELECT r.amount_inr, r.settled_at,
	p.counterparty_country != '' AND p.counterparty_country != 'IN'
	FROM reconciliations r JOIN payments p ON p.id = r.payment_id
	WHERE r.user_id = ? AND r.status = 'RECONCILED' AND r.settled_at >= ? AND r.settled_at < ?`

// sumReceipts buckets the reconciled receipts settled in [from, to) by IST day.
func (tx *Tx) sumReceipts(userID string, from, to int64) (map[taxDayKey]*taxBucket, error) {
	rows, err := tx.QueryContext(tx.ctx, reconciledReceipts, userID, from, to)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[taxDayKey]*taxBucket{}
	for rows.Next() {
		var amount, settled int64
		var cross bool
		if err := rows.Scan(&amount, &settled, &cross); err != nil {
			return nil, err
		}
		k := taxDayKey{istDay(settled), cross}
		if out[k] == nil {
			out[k] = &taxBucket{}
		}
		out[k].add(amount, settled)
	}
	return out, rows.Err()
}

func (tx *Tx) writeTaxDays(userID string, buckets map[taxDayKey]*taxBucket) error {
	for k, b := range buckets {
		if _, err := tx.ExecContext(tx.ctx, `INSERT INTO tax_days (user_id, day, cross_border, txn_count, amount_inr,
			igst_18, first_settled_at, last_settled_at) VALUES (?,?,?,?,?,?,?,?)`,
			userID, k.day, k.crossBorder, b.count, b.amount, b.igst, b.first, b.last); err != nil {
			return err
		}
	}
	return nil
}

// rebuildAllTaxDays replaces every aggregate of the user: one pass over the
// user's reconciled rows, done once per user.
func (tx *Tx) rebuildAllTaxDays(userID string) error {
	for _, q := range []string{"DELETE FROM tax_days WHERE user_id = ?", "DELETE FROM tax_dirty_days WHERE user_id = ?"} {
		if _, err := tx.ExecContext(tx.ctx, q, userID); err != nil {
			return err
		}
	}
	buckets, err := tx.sumReceipts(userID, 0, 1<<62)
	if err != nil {
		return err
	}
	return tx.writeTaxDays(userID, buckets)
}

// rebuildDirtyTaxDays recomputes only the days marked stale, each from its
// own range of reconciled rows.
func (tx *Tx) rebuildDirtyTaxDays(userID string) error {
	rows, err := tx.QueryContext(tx.ctx, "SELECT day FROM tax_dirty_days WHERE user_id = ?", userID)
	if err != nil {
		return err
	}
	var days []string
	for rows.Next() {
		var d string
		if err := rows.Scan(&d); err != nil {
			rows.Close()
			return err
		}
		days = append(days, d)
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return err
	}
	for _, d := range days {
		start, err := time.ParseInLocation(time.DateOnly, d, india.IST)
		if err != nil {
			return err
		}
		buckets, err := tx.sumReceipts(userID, ms(start), ms(start.AddDate(0, 0, 1)))
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(tx.ctx, "DELETE FROM tax_days WHERE user_id = ? AND day = ?", userID, d); err != nil {
			return err
		}
		if err := tx.writeTaxDays(userID, buckets); err != nil {
			return err
		}
		if _, err := tx.ExecContext(tx.ctx, "DELETE FROM tax_dirty_days WHERE user_id = ? AND day = ?", userID, d); err != nil {
			return err
		}
	}
	return nil
}
