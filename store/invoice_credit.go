package store

import (
	"context"
	"time"

	"github.com/payoutd/payoutd/apperr"
)

// CreditNote reduces or cancels an invoice (CGST Rules r.53). Amount is in
// the invoice currency's minor units; ValueINR and IGST in paise, at the
// invoice's rate and in the same proportion.
type CreditNote struct {
	ID        string
	InvoiceID string
	UserID    string
	Livemode  bool
	FY        string
	Seq       int64
	Number    string
	Date      string
	Amount    int64
	ValueINR  int64
	IGST      int64
	Reason    string
	CreatedAt time.Time
	// Invoice is the invoice it is against, read with it.
	Invoice Invoice
}

const creditNoteCols = `c.id, c.invoice_id, c.user_id, c.livemode, c.fy, c.seq, c.number, c.date, c.amount, c.value_inr, c.igst,
	c.reason, c.created_at`

func scanCreditNote(row interface{ Scan(...any) error }) (CreditNote, error) {
	var c CreditNote
	var created int64
	err := row.Scan(&c.ID, &c.InvoiceID, &c.UserID, &c.Livemode, &c.FY, &c.Seq, &c.Number, &c.Date, &c.Amount, &c.ValueINR, &c.IGST,
		&c.Reason, &created)
	c.CreatedAt = fromMS(created)
	return c, err
}

// InsertCreditNote writes a credit note the caller has numbered and
// valued, with its audit row and event. More than the invoice still holds
// is refused.
func (tx *Tx) InsertCreditNote(c CreditNote) (CreditNote, error) {
	inv, err := tx.InvoiceInTx(c.UserID, c.InvoiceID)
	if err != nil {
		return CreditNote{}, err
	}
	if c.Amount <= 0 || c.Amount > inv.Total-inv.Credited {
		return CreditNote{}, &apperr.Error{Code: apperr.ErrValidation, Message: "request validation failed",
			Fields: map[string]string{"amount": "must be positive and at most what the invoice still holds after its credit notes"}}
	}
	c.ID, c.CreatedAt = NewID("cn"), tx.now
	_, err = tx.exec(`INSERT INTO credit_notes (id, invoice_id, user_id, livemode, fy, seq, number, date, amount, value_inr, igst,
		reason, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)`, c.ID, c.InvoiceID, c.UserID, c.Livemode, c.FY, c.Seq, c.Number,
		c.Date, c.Amount, c.ValueINR, c.IGST, c.Reason, ms(c.CreatedAt))
	if err != nil {
		return CreditNote{}, err
	}
	data := map[string]any{"creditNoteId": c.ID, "invoiceId": c.InvoiceID, "number": c.Number, "date": c.Date,
		"amountMinor": c.Amount, "valueInrPaise": c.ValueINR, "igstPaise": c.IGST, "version": inv.Version + 1}
	if err := tx.Audit(c.UserID, c.Livemode, "invoice.credited", "invoice", c.InvoiceID, data); err != nil {
		return CreditNote{}, err
	}
	inv.Credited, inv.CreditedINR, inv.CreditedIGST, inv.Version = inv.Credited+c.Amount, inv.CreditedINR+c.ValueINR,
		inv.CreditedIGST+c.IGST, inv.Version+1
	c.Invoice = inv
	return c, tx.emit(c.UserID, c.Livemode, "invoice.credited", c.InvoiceID, data)
}

// CreditNotesOf returns an invoice's credit notes, oldest first.
func (db *DB) CreditNotesOf(ctx context.Context, invoiceID string) ([]CreditNote, error) {
	return creditNotes(ctx, db.r, "WHERE c.invoice_id = ? ORDER BY c.date, c.seq", invoiceID)
}

// CreditNotes returns the user's credit notes dated fromDay..toDay with
// their invoices, oldest first.
func (s *Snapshot) CreditNotes(userID, fromDay, toDay string) ([]CreditNote, error) {
	out, err := creditNotes(s.ctx, s.q, "WHERE c.user_id = ? AND c.date >= ? AND c.date <= ? ORDER BY c.date, c.seq", userID, fromDay, toDay)
	if err != nil {
		return nil, err
	}
	for k := range out {
		is, err := invoices(s.ctx, s.q, "WHERE i.id = ?", out[k].InvoiceID)
		if err != nil || len(is) == 0 {
			return nil, err
		}
		out[k].Invoice = is[0]
	}
	return out, nil
}

func creditNotes(ctx context.Context, q reader, where string, args ...any) ([]CreditNote, error) {
	rows, err := q.QueryContext(ctx, "SELECT "+creditNoteCols+" FROM credit_notes c "+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []CreditNote{}
	for rows.Next() {
		c, err := scanCreditNote(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}
