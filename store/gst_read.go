package store

import "context"

// GSTDay is one maintained GST aggregate: a user's RECONCILED receipts of one
// kind whose GST day (invoice date, else IST settlement day) is Day.
type GSTDay struct {
	Day         string // YYYY-MM-DD
	CrossBorder bool
	ByInvoice   bool // Day is the invoice date
	Count       int64
	AmountINR   int64
	IGST18      int64
}

// GSTDays returns the user's GST aggregates for fromDay..toDay, both
// inclusive: at most four rows per day, a primary-key range.
func (db *DB) GSTDays(ctx context.Context, userID, fromDay, toDay string) ([]GSTDay, error) {
	rows, err := db.QueryContext(ctx, `SELECT day, cross_border, by_invoice, txn_count, amount_inr, igst_18
		FROM gst_days WHERE user_id = ? AND day >= ? AND day <= ? ORDER BY day, cross_border, by_invoice`,
		userID, fromDay, toDay)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []GSTDay
	for rows.Next() {
		var d GSTDay
		if err := rows.Scan(&d.Day, &d.CrossBorder, &d.ByInvoice, &d.Count, &d.AmountINR, &d.IGST18); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// GSTTotals are the GST figures of a span of GST days: cross-border receipts
// are ZeroRated when a LUT covers their day and Liable (IGST) otherwise;
// Domestic receipts are outside the GST figures. ByInvoiceDate and
// BySettlementDate count the cross-border receipts placed each way.
type GSTTotals struct {
	ZeroRated        ReceiptTotal
	Liable           ReceiptTotal
	Domestic         ReceiptTotal
	ByInvoiceDate    int64
	BySettlementDate int64
}

// SumGSTDays adds up GST aggregates, classifying cross-border days by the LUT.
func SumGSTDays(days []GSTDay, lut LUTWindow) GSTTotals {
	var t GSTTotals
	for _, d := range days {
		td := TaxDay{Day: d.Day, CrossBorder: d.CrossBorder, Count: d.Count, AmountINR: d.AmountINR, IGST18: d.IGST18}
		switch {
		case !d.CrossBorder:
			t.Domestic.add(td, 0)
		case lut.Covers(d.Day):
			t.ZeroRated.add(td, 0)
		default:
			t.Liable.add(td, d.IGST18)
		}
		switch {
		case !d.CrossBorder:
		case d.ByInvoice:
			t.ByInvoiceDate += d.Count
		default:
			t.BySettlementDate += d.Count
		}
	}
	return t
}
