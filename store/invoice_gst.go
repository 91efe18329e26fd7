package store

import (
	"time"

	"github.com/payoutd/payoutd/india"
)

// What the GST figures need about invoices beside the receipts the store
// aggregates: an invoice issued in payoutd is the supply, so a receipt that
// collects one must not count again.

// ReceiptDocument is one reconciled receipt at its GST value, as GSTR-1
// lists it when no payoutd invoice stands for it: its own invoice
// reference, time of supply and value. Amounts: InvoiceAmount in Currency's
// minor units, ValueINR in paise.
type ReceiptDocument struct {
	PaymentID     string
	InvoiceRef    string
	Day           string
	CrossBorder   bool
	ByInvoice     bool
	Currency      string
	InvoiceAmount int64
	ValueINR      int64
	Linked        bool // it collects a payoutd invoice
}

// ReceiptDocuments returns the user's reconciled receipts with a GST value
// whose time of supply is fromDay..toDay and whose figures are in gst_days
// (not waiting in the refresh queue), oldest first.
func (s *Snapshot) ReceiptDocuments(userID, fromDay, toDay string) ([]ReceiptDocument, error) {
	return s.receiptDocuments(`FROM gst_values v JOIN payments p ON p.id = v.payment_id
		JOIN reconciliations r ON r.payment_id = v.payment_id AND r.status = 'RECONCILED'
		LEFT JOIN payment_invoices l ON l.payment_id = v.payment_id
		WHERE v.user_id = ?`, userID, fromDay, toDay)
}

// LinkedReceipts returns ReceiptDocuments of fromDay..toDay that collect a
// payoutd invoice: what the GST figures take back out of gst_days. They
// are read from the user's links to invoices (payment_invoices_user), not
// picked out of every receipt of the period.
func (s *Snapshot) LinkedReceipts(userID, fromDay, toDay string) ([]ReceiptDocument, error) {
	return s.receiptDocuments(linkedReceipts, userID, fromDay, toDay)
}

const linkedReceipts = `FROM payment_invoices l JOIN gst_values v ON v.payment_id = l.payment_id
		JOIN payments p ON p.id = v.payment_id
		JOIN reconciliations r ON r.payment_id = v.payment_id AND r.status = 'RECONCILED'
		WHERE l.user_id = ?`

func receiptDocumentsSQL(from string) string {
	return `SELECT v.payment_id, p.invoice_ref, v.day, v.cross_border, v.invoice_date != '',
		v.currency, v.invoice_amount, v.value_inr, l.payment_id IS NOT NULL ` + from + `
		AND v.day >= ? AND v.day <= ?
		AND NOT EXISTS (SELECT 1 FROM tax_pending t WHERE t.user_id = v.user_id AND t.payment_id = v.payment_id)
		ORDER BY v.day, p.settled_at, v.payment_id`
}

// receiptDocuments reads ReceiptDocuments from the tables of from, whose
// WHERE names the user; the period and the refresh queue are added here.
func (s *Snapshot) receiptDocuments(from, userID, fromDay, toDay string) ([]ReceiptDocument, error) {
	rows, err := s.q.QueryContext(s.ctx, receiptDocumentsSQL(from), userID, fromDay, toDay)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ReceiptDocument
	for rows.Next() {
		var d ReceiptDocument
		if err := rows.Scan(&d.PaymentID, &d.InvoiceRef, &d.Day, &d.CrossBorder, &d.ByInvoice, &d.Currency, &d.InvoiceAmount,
			&d.ValueINR, &d.Linked); err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, rows.Err()
}

// ProfileInTx reads the user's profile in a transaction.
func (g PeopleTx) ProfileInTx(userID string) (Profile, error) {
	tx := g.tx
	return tx.findProfile(userID)
}

// LUTsInTx returns the user's LUTs that count, in a transaction.
func (g InvoicesTx) LUTsInTx(userID string) ([]LUT, error) {
	tx := g.tx
	rows, err := tx.query("SELECT "+lutCols+" FROM luts WHERE user_id = ? AND withdrawn_at IS NULL ORDER BY fy", userID)
	if err != nil {
		return nil, err
	}
	return scanLUTs(rows)
}

// RecordedRateOn is the latest INR rate of currency payoutd holds on or
// before the IST day, for one mode, and the day it was true.
func (g InvoicesTx) RecordedRateOn(livemode bool, currency, day string) (rate, rateDay string, ok bool, err error) {
	tx := g.tx
	r, at, ok, err := tx.Tax().RateOn(livemode, currency, day)
	if !ok || err != nil {
		return "", "", ok, err
	}
	return r, at.In(india.IST).Format(time.DateOnly), true, nil
}
