package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"github.com/payoutd/payoutd/apperr"
)

// InvoiceLine is one line of an invoice: a service, its SAC and its value
// in the invoice currency's minor units.
type InvoiceLine struct {
	Description string `json:"description"`
	SAC         string `json:"sac"`
	Amount      int64  `json:"amount"`
}

// Party is a supplier or recipient as an invoice froze it.
type Party struct {
	Name, Address string
	GSTIN, State  string // supplier only
	Country       string // recipient only, ISO 3166-1 alpha-2
}

// Invoice is an export invoice as issued (CGST Rules r.46). Amounts: Total
// and the lines in Currency's minor units, ValueINR and IGST in paise.
// Credited, CreditedINR and CreditedIGST are read with it: its credit notes.
type Invoice struct {
	ID        string
	UserID    string
	Livemode  bool
	FY        string
	Seq       int64
	Number    string
	Date      string
	Currency  string
	Lines     []InvoiceLine
	Total     int64
	Rate      string
	RateDate  string
	RateBasis string
	ValueINR  int64
	IGST      int64
	LUTARN    string // "" when issued with IGST
	Supplier  Party
	Recipient Party
	ClientID  string
	CreatedAt time.Time

	Credited, CreditedINR, CreditedIGST int64
	// Version counts the invoice's changes: 1 at issue, one more for each
	// credit note and for rule 96A's flag (its events carry it).
	Version int64
	// FlaggedOn is the IST day rule 96A's watch emitted
	// invoice.realisation_due for it, "" before.
	FlaggedOn string
}

// Cancelled reports whether credit notes have taken the whole value back.
func (i Invoice) Cancelled() bool { return i.Credited >= i.Total }

const invoiceCols = `i.id, i.user_id, i.livemode, i.fy, i.seq, i.number, i.date, i.currency, i.lines, i.total, i.rate, i.rate_date,
	i.rate_basis, i.value_inr, i.igst, i.lut_arn, i.supplier_name, i.supplier_address, i.supplier_gstin, i.supplier_state,
	i.recipient_name, i.recipient_address, i.recipient_country, i.client_id, i.created_at,
	coalesce((SELECT sum(amount) FROM credit_notes c WHERE c.invoice_id = i.id), 0),
	coalesce((SELECT sum(value_inr) FROM credit_notes c WHERE c.invoice_id = i.id), 0),
	coalesce((SELECT sum(igst) FROM credit_notes c WHERE c.invoice_id = i.id), 0),
	1 + (SELECT count(*) FROM credit_notes c WHERE c.invoice_id = i.id) +
	(SELECT count(*) FROM invoice_realisation_flags f WHERE f.invoice_id = i.id),
	coalesce((SELECT flagged_on FROM invoice_realisation_flags f WHERE f.invoice_id = i.id), '')`

func scanInvoice(row interface{ Scan(...any) error }) (Invoice, error) {
	var i Invoice
	var lines string
	var created int64
	err := row.Scan(&i.ID, &i.UserID, &i.Livemode, &i.FY, &i.Seq, &i.Number, &i.Date, &i.Currency, &lines, &i.Total, &i.Rate,
		&i.RateDate, &i.RateBasis, &i.ValueINR, &i.IGST, &i.LUTARN, &i.Supplier.Name, &i.Supplier.Address, &i.Supplier.GSTIN,
		&i.Supplier.State, &i.Recipient.Name, &i.Recipient.Address, &i.Recipient.Country, &i.ClientID, &created,
		&i.Credited, &i.CreditedINR, &i.CreditedIGST, &i.Version, &i.FlaggedOn)
	if err != nil {
		return i, err
	}
	i.CreatedAt = fromMS(created)
	return i, json.Unmarshal([]byte(lines), &i.Lines)
}

// NextSeq is the next number of the user's series of kind ("invoice" or
// "credit_note") in fy: one past the highest issued, so the series is
// consecutive (the single writer issues one at a time).
func (tx *Tx) NextSeq(userID, kind, fy string) (int64, error) {
	table := "invoices"
	if kind == "credit_note" {
		table = "credit_notes"
	}
	var last int64
	err := tx.queryRow("SELECT coalesce(max(seq), 0) FROM "+table+" WHERE user_id = ? AND fy = ?", userID, fy).Scan(&last)
	return last + 1, err
}

// InsertInvoice writes an invoice the caller has numbered and valued, with
// its audit row and event.
func (tx *Tx) InsertInvoice(i Invoice) (Invoice, error) {
	i.ID, i.CreatedAt, i.Version = NewID("inv"), tx.now, 1
	lines, err := json.Marshal(i.Lines)
	if err != nil {
		return Invoice{}, err
	}
	_, err = tx.exec(`INSERT INTO invoices (id, user_id, livemode, fy, seq, number, date, currency, lines, total, rate, rate_date,
		rate_basis, value_inr, igst, lut_arn, supplier_name, supplier_address, supplier_gstin, supplier_state, recipient_name,
		recipient_address, recipient_country, client_id, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		i.ID, i.UserID, i.Livemode, i.FY, i.Seq, i.Number, i.Date, i.Currency, string(lines), i.Total, i.Rate, i.RateDate,
		i.RateBasis, i.ValueINR, i.IGST, i.LUTARN, i.Supplier.Name, i.Supplier.Address, i.Supplier.GSTIN, i.Supplier.State,
		i.Recipient.Name, i.Recipient.Address, i.Recipient.Country, i.ClientID, ms(i.CreatedAt))
	if isUniqueViolation(err) {
		return Invoice{}, apperr.Errorf(apperr.ErrConflict, "invoice number %s is already issued", i.Number)
	}
	if err != nil {
		return Invoice{}, err
	}
	data := map[string]any{"invoiceId": i.ID, "number": i.Number, "date": i.Date, "currency": i.Currency, "totalMinor": i.Total,
		"valueInrPaise": i.ValueINR, "igstPaise": i.IGST, "lutArn": i.LUTARN, "version": i.Version}
	if err := tx.Audit(i.UserID, i.Livemode, "invoice.issued", "invoice", i.ID, data); err != nil {
		return Invoice{}, err
	}
	return i, tx.emit(i.UserID, i.Livemode, "invoice.issued", i.ID, data)
}

// InvoiceInTx reads one of the user's invoices in a transaction.
func (tx *Tx) InvoiceInTx(userID, id string) (Invoice, error) {
	i, err := scanInvoice(tx.queryRow("SELECT "+invoiceCols+" FROM invoices i WHERE i.id = ? AND i.user_id = ?", id, userID))
	return i, notFound(err, apperr.ErrNotFound, "invoice")
}

// FindInvoice reads one of the user's invoices; another user's is not found.
func (db *DB) FindInvoice(ctx context.Context, userID, id string) (Invoice, error) {
	i, err := scanInvoice(db.queryRow(ctx, "SELECT "+invoiceCols+" FROM invoices i WHERE i.id = ? AND i.user_id = ?", id, userID))
	return i, notFound(err, apperr.ErrNotFound, "invoice")
}

// ListInvoices returns a page of the user's invoices, newest first (and the
// one after it, see pageArgs), and how many there are.
func (db *DB) ListInvoices(ctx context.Context, userID string, page, limit int) ([]Invoice, int, error) {
	var total int
	if err := db.queryRow(ctx, "SELECT count(*) FROM invoices WHERE user_id = ?", userID).Scan(&total); err != nil {
		return nil, 0, err
	}
	out, err := invoices(ctx, db.r, "WHERE i.user_id = ? ORDER BY i.date DESC, i.seq DESC LIMIT ? OFFSET ?",
		append([]any{userID}, pageArgs(page, limit)...)...)
	return out, total, err
}

// Invoices returns the user's invoices dated fromDay..toDay, oldest first.
func (s *Snapshot) Invoices(userID, fromDay, toDay string) ([]Invoice, error) {
	return invoices(s.ctx, s.q, "WHERE i.user_id = ? AND i.date >= ? AND i.date <= ? ORDER BY i.date, i.seq", userID, fromDay, toDay)
}

// LUTInvoicesUpTo returns the user's invoices issued under a LUT dated on
// or before day, oldest first: the ones rule 96A may be watching.
func (s *Snapshot) LUTInvoicesUpTo(userID, day string) ([]Invoice, error) {
	return invoices(s.ctx, s.q, "WHERE i.user_id = ? AND i.lut_arn != '' AND i.date <= ? ORDER BY i.date, i.seq", userID, day)
}

func invoices(ctx context.Context, q reader, where string, args ...any) ([]Invoice, error) {
	rows, err := q.QueryContext(ctx, "SELECT "+invoiceCols+" FROM invoices i "+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Invoice{}
	for rows.Next() {
		i, err := scanInvoice(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, i)
	}
	return out, rows.Err()
}

// Collection is a payout that names an invoice, with what it brought in.
type Collection struct {
	PaymentID string
	Status    string
	Amount    int64 // minor units of Currency
	Currency  string
	AmountINR *int64 // paise, once settled
	SettledAt *time.Time
	FiraID    string
}

// Collected reports whether the payout's money has arrived.
func (c Collection) Collected() bool {
	return c.SettledAt != nil && c.AmountINR != nil && c.Status != StatusFailed
}

// Collections returns the payouts that name the invoice, oldest first.
func (db *DB) Collections(ctx context.Context, invoiceID string) ([]Collection, error) {
	return collections(ctx, db.r, invoiceID)
}

// Collections reads them in a snapshot.
func (s *Snapshot) Collections(invoiceID string) ([]Collection, error) {
	return collections(s.ctx, s.q, invoiceID)
}

// CollectionsInTx reads them in a transaction.
func (tx *Tx) CollectionsInTx(invoiceID string) ([]Collection, error) {
	if err := tx.release("payments"); err != nil {
		return nil, err
	}
	return collections(tx.ctx, tx.x, invoiceID)
}

func collections(ctx context.Context, q reader, invoiceID string) ([]Collection, error) {
	rows, err := q.QueryContext(ctx, `SELECT p.id, p.status, p.amount, p.currency, p.amount_inr, p.settled_at, coalesce(f.id, '')
		FROM payment_invoices l JOIN payments p ON p.id = l.payment_id LEFT JOIN firas f ON f.payment_id = p.id
		WHERE l.invoice_id = ? ORDER BY p.created_at, p.id`, invoiceID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Collection{}
	for rows.Next() {
		var c Collection
		var inr, settled sql.NullInt64
		if err := rows.Scan(&c.PaymentID, &c.Status, &c.Amount, &c.Currency, &inr, &settled, &c.FiraID); err != nil {
			return nil, err
		}
		if inr.Valid {
			c.AmountINR = &inr.Int64
		}
		c.SettledAt = nullMS(settled)
		out = append(out, c)
	}
	return out, rows.Err()
}

// LinkPayment records that a payout collects an invoice (initiate's
// invoiceId), in the transaction that creates the payout.
func (tx *Tx) LinkPayment(paymentID string, i Invoice) error {
	_, err := tx.exec("INSERT INTO payment_invoices (payment_id, invoice_id, user_id) VALUES (?,?,?)", paymentID, i.ID, i.UserID)
	return err
}

// InvoiceOfPayment is the id of the invoice a payout collects, "" when none.
func (db *DB) InvoiceOfPayment(ctx context.Context, paymentID string) (string, error) {
	var id string
	err := db.queryRow(ctx, "SELECT invoice_id FROM payment_invoices WHERE payment_id = ?", paymentID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return id, err
}
