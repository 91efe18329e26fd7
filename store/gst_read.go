package store

import (
	"context"
	"slices"
	"strings"
)

// GSTDay is a user's RECONCILED receipts of one kind whose GST day (invoice
// date, else IST settlement day) is Day: the tax day plus the receipts
// moved onto it by their invoice dates, less those moved off it.
type GSTDay struct {
	Day         string // YYYY-MM-DD
	CrossBorder bool
	Count       int64
	AmountINR   int64
	IGST18      int64
	ByInvoice   int64 // of Count, the receipts placed here by their invoice date
}

// GSTDays returns the user's GST days fromDay..toDay, both inclusive: the
// tax days of the range with the gst_moves rows of the same range (a
// primary-key range each, at most two rows a day) added in, in day order.
func (db *DB) GSTDays(ctx context.Context, userID, fromDay, toDay string) ([]GSTDay, error) {
	tax, err := db.TaxDays(ctx, userID, fromDay, toDay)
	if err != nil {
		return nil, err
	}
	out := make([]GSTDay, 0, len(tax))
	at := make(map[gstKey]int, len(tax))
	for _, d := range tax {
		at[gstKey{d.Day, d.CrossBorder}] = len(out)
		out = append(out, GSTDay{Day: d.Day, CrossBorder: d.CrossBorder, Count: d.Count, AmountINR: d.AmountINR, IGST18: d.IGST18})
	}
	rows, err := db.query(ctx, `SELECT day, cross_border, txn_count, amount_inr, igst_18, by_invoice
		FROM gst_moves WHERE user_id = ? AND day >= ? AND day <= ?`, userID, fromDay, toDay)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	moved := false
	for rows.Next() {
		var m GSTDay
		if err := rows.Scan(&m.Day, &m.CrossBorder, &m.Count, &m.AmountINR, &m.IGST18, &m.ByInvoice); err != nil {
			return nil, err
		}
		k := gstKey{m.Day, m.CrossBorder}
		i, ok := at[k]
		if !ok {
			at[k], moved = len(out), true
			out = append(out, m)
			continue
		}
		d := &out[i]
		d.Count, d.AmountINR, d.IGST18, d.ByInvoice = d.Count+m.Count, d.AmountINR+m.AmountINR, d.IGST18+m.IGST18, d.ByInvoice+m.ByInvoice
	}
	if moved {
		slices.SortFunc(out, func(a, b GSTDay) int {
			if c := strings.Compare(a.Day, b.Day); c != 0 {
				return c
			}
			return b2i(a.CrossBorder) - b2i(b.CrossBorder)
		})
	}
	return out, rows.Err()
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

type gstKey struct {
	day         string
	crossBorder bool
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

// SumGSTDays adds up GST days, classifying cross-border days by the LUT.
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
		if d.CrossBorder {
			t.ByInvoiceDate += d.ByInvoice
			t.BySettlementDate += d.Count - d.ByInvoice
		}
	}
	return t
}
