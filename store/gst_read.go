package store

import "github.com/payoutd/payoutd/india"

// GSTDay is a user's RECONCILED receipts of one kind, one currency and one
// rate whose time of supply (invoice date, else IST settlement day) is Day,
// at their GST value. Amounts: InvoiceAmount in Currency's minor units, the
// rest paise.
type GSTDay struct {
	Day           string // YYYY-MM-DD
	CrossBorder   bool
	Currency      string
	RateDate      string // the IST date of the rate's as-of time
	Rate          string // INR per unit of Currency
	Count         int64
	ByInvoice     int64 // of Count, the receipts placed on Day by their invoice date
	InvoiceAmount int64
	ValueINR      int64
	IGST18        int64 // Σ per-receipt 18% IGST of ValueINR
}

// GSTDays returns the user's GST days fromDay..toDay, both inclusive, in
// day order: a primary-key range of gst_days, one row per day, kind,
// currency and rate.
func (s *Snapshot) GSTDays(userID, fromDay, toDay string) ([]GSTDay, error) {
	rows, err := s.q.QueryContext(s.ctx, `SELECT day, cross_border, currency, rate_date, rate, txn_count, by_invoice,
		invoice_amount, value_inr, igst_18 FROM gst_days WHERE user_id = ? AND day >= ? AND day <= ?
		ORDER BY day, cross_border, currency, rate_date, rate`, userID, fromDay, toDay)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []GSTDay
	for rows.Next() {
		var d GSTDay
		if err := rows.Scan(&d.Day, &d.CrossBorder, &d.Currency, &d.RateDate, &d.Rate, &d.Count, &d.ByInvoice,
			&d.InvoiceAmount, &d.ValueINR, &d.IGST18); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// ReceiptDaysOfGST turns GST days into the rows india.SplitReceipts
// classifies, at their GST value.
func ReceiptDaysOfGST(days []GSTDay) []india.ReceiptDay {
	out := make([]india.ReceiptDay, 0, len(days))
	for _, d := range days {
		out = append(out, india.ReceiptDay{Day: d.Day, CrossBorder: d.CrossBorder, Count: d.Count, AmountINR: d.ValueINR,
			IGST: d.IGST18, ByInvoice: d.ByInvoice})
	}
	return out
}

// ReceiptDaysOfTax turns tax days into the rows india.SplitReceipts
// classifies, at the INR credited on their settlement day.
func ReceiptDaysOfTax(days []TaxDay) []india.ReceiptDay {
	out := make([]india.ReceiptDay, 0, len(days))
	for _, d := range days {
		out = append(out, india.ReceiptDay{Day: d.Day, CrossBorder: d.CrossBorder, Count: d.Count, AmountINR: d.AmountINR, IGST: d.IGST18})
	}
	return out
}
