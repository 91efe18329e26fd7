package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/payoutd/payoutd/india"
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
func (db *DB) TaxDays(ctx context.Context, userID, fromDay, toDay string) ([]TaxDay, error) {
	rows, err := db.r.QueryContext(ctx, `SELECT day, cross_border, txn_count, amount_inr, igst_18, first_settled_at,
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
func (db *DB) TaxRefreshedAt(ctx context.Context, userID string) (at time.Time, ok bool, err error) {
	var v int64
	err = db.r.QueryRowContext(ctx, "SELECT refreshed_at FROM tax_refresh_state WHERE user_id = ?", userID).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, false, nil
	}
	return fromMS(v), err == nil, err
}

// LUTWindow is the span of IST days a Letter of Undertaking covers, both
// inclusive. A LUT is valid for one financial year and does not roll over,
// so it covers the financial year that contains its
// validUntil date, from 1 April up to validUntil. The zero value covers
// nothing.
type LUTWindow struct {
	From, Until string // YYYY-MM-DD
}

// LUTWindowOf reads the profile's LUT; a LUT without a number or with no
// readable validUntil date covers nothing.
func LUTWindowOf(lutNumber, validUntil string) LUTWindow {
	until, err := time.ParseInLocation(time.DateOnly, validUntil, india.IST)
	if lutNumber == "" || err != nil {
		return LUTWindow{}
	}
	return LUTWindow{From: india.FYOf(until).Start().In(india.IST).Format(time.DateOnly), Until: validUntil}
}

// Covers reports whether the LUT is valid on an IST day.
func (w LUTWindow) Covers(day string) bool {
	return w.Until != "" && day >= w.From && day <= w.Until
}

// ReceiptTotal is a count and sum of receipts, with the IGST they carry.
type ReceiptTotal struct {
	Count     int64
	AmountINR int64
	IGST      int64
}

func (t *ReceiptTotal) add(d TaxDay, igst int64) {
	t.Count += d.Count
	t.AmountINR += d.AmountINR
	t.IGST += igst
}

// TaxTotals are the figures of a span of days. All is every reconciled
// receipt (income tax); cross-border receipts are ZeroRated when a LUT covers
// their day and Liable (IGST 18%) otherwise; Domestic receipts are outside
// the GST figures (docs/tax.md).
type TaxTotals struct {
	All       ReceiptTotal
	ZeroRated ReceiptTotal
	Liable    ReceiptTotal
	Domestic  ReceiptTotal
	First     *time.Time
	Last      *time.Time
}

// SumTaxDays adds up aggregates, classifying cross-border days by the LUT.
func SumTaxDays(days []TaxDay, lut LUTWindow) TaxTotals {
	var t TaxTotals
	for _, d := range days {
		t.All.add(d, 0)
		switch {
		case !d.CrossBorder:
			t.Domestic.add(d, 0)
		case lut.Covers(d.Day):
			t.ZeroRated.add(d, 0)
		default:
			t.Liable.add(d, d.IGST18)
		}
		if first := d.FirstSettledAt; t.First == nil || first.Before(*t.First) {
			t.First = &first
		}
		if last := d.LastSettledAt; t.Last == nil || last.After(*t.Last) {
			t.Last = &last
		}
	}
	return t
}
