package store

import "context"

// What rule 96A's watch job needs: the LUT invoices it may flag, and the
// flag itself, recorded once per invoice with its event.

// RealisationFlag is what rule 96A's watch announced of an invoice, in
// paise: the uncollected taxable value, its IGST and the interest to its
// pay-by day. Data is the event's data, which the job puts together.
type RealisationFlag struct {
	Invoice  Invoice
	Day      string // the IST day flagged
	Taxable  int64
	IGST     int64
	Interest int64
	Data     map[string]any
}

// UnflaggedLUTInvoices returns every user's invoices issued under a LUT,
// dated fromDay..toDay and not flagged yet, oldest first (through
// invoices_lut_date): those rule 96A's watch may have to flag.
func (db *DB) UnflaggedLUTInvoices(ctx context.Context, fromDay, toDay string) ([]Invoice, error) {
	return invoices(ctx, db.r, `WHERE i.lut_arn != '' AND i.date >= ? AND i.date <= ?
		AND NOT EXISTS (SELECT 1 FROM invoice_realisation_flags f WHERE f.invoice_id = i.id) ORDER BY i.date, i.id`, fromDay, toDay)
}

// FlagRealisation records rule 96A's flag of an invoice with its audit row
// and the invoice.realisation_due event, the invoice's version one higher.
// An invoice already flagged is left alone and reports false, so however
// often the watch runs the event is emitted once.
func (tx *Tx) FlagRealisation(f RealisationFlag) (bool, error) {
	i := f.Invoice
	res, err := tx.exec(`INSERT INTO invoice_realisation_flags (invoice_id, user_id, flagged_on, taxable_value, igst, interest, created_at)
		VALUES (?,?,?,?,?,?,?) ON CONFLICT (invoice_id) DO NOTHING`, i.ID, i.UserID, f.Day, f.Taxable, f.IGST, f.Interest, ms(tx.now))
	if err != nil {
		return false, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return false, err
	}
	f.Data["version"] = i.Version + 1
	if err := tx.Audit(i.UserID, i.Livemode, EventInvoiceRealisationDue, "invoice", i.ID, f.Data); err != nil {
		return false, err
	}
	return true, tx.emit(i.UserID, i.Livemode, EventInvoiceRealisationDue, i.ID, f.Data)
}
