package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/wire"
)

// Payment is one outbound payout.
type Payment struct {
	ID                 string
	UserID             string
	Livemode           bool
	TxnID              string
	Type               string
	Status             string
	Amount             int64
	Currency           string
	DestinationAddress string
	Memo               string
	MemoType           string // as given at initiate: "id", "text" or "" (payout.MemoTypeOf decides)
	PurposeCode        string
	InvoiceRef         string
	InvoiceDate        string // YYYY-MM-DD or "": decides the GST month when set
	// InvoiceAmount is the invoice's value in Currency's minor units when it
	// differs from Amount (0: the amount is the invoice value); GST values it.
	InvoiceAmount       int64
	CounterpartyName    string
	CounterpartyCountry string
	CounterpartyBank    string
	VaultID             string
	Reserved            int64
	Attempt             int
	FailedReason        string
	ReviewReason        string // why compliance held it for review (MANUAL_REVIEW)
	SettlementRef       string
	SettlementRate      string
	AmountINR           *int64
	Metadata            map[string]string // the client's key/value pairs from initiate
	Version             int64             // 1 at creation, +1 at every change: orders what clients hear of it
	FiraID              string            // its FIRA once generated (read from firas, never written here)
	SettledAt           *time.Time
	CreatedAt           time.Time
	UpdatedAt           time.Time
	// Attention, when set, is why the payout waits for a person (its job
	// gave up), since AttentionAt; any move of the payout clears it.
	Attention   string
	AttentionAt *time.Time
	ClientID    string // the client it was made for, "" when none was named
}

// CrossBorder: a counterparty country present and not India.
func (p Payment) CrossBorder() bool {
	return p.CounterpartyCountry != "" && p.CounterpartyCountry != "IN"
}

const paymentCols = `id, user_id, livemode, txn_id, type, status, amount, currency, destination_address, memo,
	purpose_code, invoice_ref, counterparty_name, counterparty_country, counterparty_bank, coalesce(vault_id, ''),
	reserved, attempt, failed_reason, settlement_ref, settlement_rate, amount_inr, settled_at, created_at, updated_at,
	invoice_date, metadata, version, review_reason,
	coalesce((SELECT f.id FROM firas f WHERE f.payment_id = payments.id), ''), invoice_amount, memo_type, attention, attention_at, client_id`

// payments runs a query of paymentCols and scans every row.
func (db *DB) payments(ctx context.Context, query string, args ...any) ([]Payment, error) {
	rows, err := db.query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Payment{}
	for rows.Next() {
		p, err := scanPayment(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

func scanPayment(row interface{ Scan(...any) error }) (Payment, error) {
	var p Payment
	var inr, settled, attentionAt sql.NullInt64
	var created, updated int64
	var metadata string
	err := row.Scan(&p.ID, &p.UserID, &p.Livemode, &p.TxnID, &p.Type, &p.Status, &p.Amount, &p.Currency,
		&p.DestinationAddress, &p.Memo, &p.PurposeCode, &p.InvoiceRef, &p.CounterpartyName, &p.CounterpartyCountry,
		&p.CounterpartyBank, &p.VaultID, &p.Reserved, &p.Attempt, &p.FailedReason, &p.SettlementRef, &p.SettlementRate,
		&inr, &settled, &created, &updated, &p.InvoiceDate, &metadata, &p.Version, &p.ReviewReason, &p.FiraID, &p.InvoiceAmount,
		&p.MemoType, &p.Attention, &attentionAt, &p.ClientID)
	if inr.Valid {
		p.AmountINR = &inr.Int64
	}
	p.SettledAt, p.CreatedAt, p.UpdatedAt, p.AttentionAt = nullMS(settled), fromMS(created), fromMS(updated), nullMS(attentionAt)
	p.Metadata = parseMetadata(metadata)
	return p, err
}

// CreatePayment records an initiated payout; no money moves. A txnId already
// used by this user is a conflict, never a second payment.
func (g PaymentsTx) CreatePayment(p Payment) (Payment, error) {
	tx := g.tx
	p.ID = NewID("pay")
	p.Type, p.Status, p.Version = "SEND", StatusInitiated, 1
	p.CreatedAt, p.UpdatedAt = tx.now, tx.now
	res, err := tx.exec(`INSERT INTO payments (id, user_id, livemode, txn_id, type, status, amount, currency,
		destination_address, memo, purpose_code, invoice_ref, counterparty_name, counterparty_country, counterparty_bank,
		created_at, updated_at, invoice_date, metadata, version, invoice_amount, memo_type, client_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		p.ID, p.UserID, p.Livemode, p.TxnID, p.Type, p.Status, p.Amount, p.Currency, p.DestinationAddress, p.Memo,
		p.PurposeCode, p.InvoiceRef, p.CounterpartyName, p.CounterpartyCountry, p.CounterpartyBank, ms(tx.now), ms(tx.now),
		p.InvoiceDate, metadataText(p.Metadata), p.Version, p.InvoiceAmount, p.MemoType, p.ClientID)
	if isUniqueViolation(err) {
		return Payment{}, apperr.Errorf(apperr.ErrConflict, "a payment with txnId %s already exists", p.TxnID)
	}
	if err != nil {
		return Payment{}, err
	}
	rowid, err := res.LastInsertId()
	if err != nil {
		return Payment{}, err
	}
	tx.searchRows = append(tx.searchRows, rowid, p.CounterpartyName, p.InvoiceRef)
	tx.countPayment(p.UserID, p.Status, 1)
	return p, tx.Audit(p.UserID, p.Livemode, "payment.initiated", "payment", p.ID,
		map[string]any{"status": p.Status, "amount": p.Amount, "currency": p.Currency})
}

// FindPayment returns the user's payment by id; another user's is not found.
func (g PaymentsTx) FindPayment(userID, id string) (Payment, error) {
	tx := g.tx
	p, err := scanPayment(tx.queryRow("SELECT "+paymentCols+" FROM payments WHERE id = ? AND user_id = ?", id, userID))
	return p, notFound(err, apperr.ErrPaymentNotFound, "payment")
}

// LoadPayment returns a payment by id regardless of owner (jobs, CLI).
func (g PaymentsTx) LoadPayment(id string) (Payment, error) {
	tx := g.tx
	p, err := scanPayment(tx.queryRow("SELECT "+paymentCols+" FROM payments WHERE id = ?", id))
	return p, notFound(err, apperr.ErrPaymentNotFound, "payment")
}

// FindPayment reads a user's payment outside a transaction.
func (g Payments) FindPayment(ctx context.Context, userID, id string) (Payment, error) {
	db := g.db
	p, err := scanPayment(db.r.QueryRowContext(ctx, "SELECT "+paymentCols+" FROM payments WHERE id = ? AND user_id = ?", id, userID))
	return p, notFound(err, apperr.ErrPaymentNotFound, "payment")
}

// FindPaymentByTxnID looks a payment up by the client's txnId.
func (g Payments) FindPaymentByTxnID(ctx context.Context, userID, txnID string) (Payment, error) {
	db := g.db
	p, err := scanPayment(db.r.QueryRowContext(ctx, "SELECT "+paymentCols+" FROM payments WHERE user_id = ? AND txn_id = ?", userID, txnID))
	return p, notFound(err, apperr.ErrPaymentNotFound, "payment")
}

// Transition moves p to status `to` if the state machine allows it and the row
// is still in p.Status (so two workers can never both move it), applies the
// reservation rules, and writes the audit row, all in this transaction.
// set may change fields of the payment before it is written.
//
// CONFIRMED is reached only through Settle, which books the settlement in
// the same step.
func (g PaymentsTx) Transition(p *Payment, to string, set func(*Payment)) error {
	tx := g.tx
	if to == StatusConfirmed {
		return fmt.Errorf("payment %s: a settlement is recorded with Settle", p.ID)
	}
	return tx.transition(p, to, set)
}

func (tx *Tx) transition(p *Payment, to string, set func(*Payment)) error {
	from := p.Status
	if !CanTransition(from, to) {
		return apperr.Errorf(apperr.ErrInvalidState, "payment %s cannot move from %s to %s", p.ID, from, to)
	}
	next := *p
	next.Status, next.UpdatedAt, next.Version = to, tx.now, p.Version+1
	next.Attention, next.AttentionAt = "", nil
	if set != nil {
		set(&next)
	}
	if to == StatusProcessing && releasesFunds(from) {
		// A retry takes the funds again; refuse rather than overdraw.
		if err := tx.reserve(&next); err != nil {
			return err
		}
	}
	if releasesFunds(to) && next.Reserved > 0 {
		if err := tx.adjustVault(next.VaultID, 0, -next.Reserved); err != nil {
			return err
		}
		next.Reserved = 0
	}
	if to != StatusFailed {
		next.FailedReason = ""
	}
	if to != StatusManualReview {
		next.ReviewReason = ""
	}
	if err := tx.writePaymentRow(*p, next); err != nil {
		return err
	}
	changes := transitionChanges{FailedReason: next.FailedReason, From: from, To: to}
	if err := tx.Audit(p.UserID, p.Livemode, "payment."+strings.ToLower(to), "payment", p.ID, changes); err != nil {
		return err
	}
	*p = next
	if typ, ok := paymentEvents[to]; ok {
		return tx.emit(p.UserID, p.Livemode, typ, p.ID, eventDataOf(*p))
	}
	return nil
}

// reserve holds the payment's amount in its vault, refusing to overdraw.
func (tx *Tx) reserve(p *Payment) error {
	if _, err := tx.Vaults().FindVault(p.UserID, p.VaultID); err != nil {
		return err
	}
	return tx.reserveIn(p.VaultID, p)
}

// reserveIn reserves p's amount in the vault: one guarded UPDATE that
// refuses to take more than the balance not already reserved, so the check
// holds whenever the vault row was read.
func (tx *Tx) reserveIn(vaultID string, p *Payment) error {
	res, err := tx.exec("UPDATE vaults SET reserved = reserved + ? WHERE id = ? AND balance - reserved >= ?",
		p.Amount, vaultID, p.Amount)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return apperr.Errorf(apperr.ErrInsufficientFunds, "vault %s has insufficient available balance", vaultID)
	}
	p.Reserved = p.Amount
	return nil
}

// paymentEventData is the payload of payout.* events: enough to act on
// without a fetch, amounts in integer minor units, and the payment's
// version, which orders events that share a timestamp. A struct, not a
// map, because it is marshalled on the write connection for every state
// change; its fields are in alphabetical order, the order encoding/json
// gives a map's keys.
type paymentEventData struct {
	AmountInrPaise *int64            `json:"amountInrPaise,omitempty"`
	AmountMinor    int64             `json:"amountMinor"`
	Attention      string            `json:"attention,omitempty"`
	Currency       string            `json:"currency"`
	FailedReason   string            `json:"failedReason,omitempty"`
	FiraID         string            `json:"firaId,omitempty"`
	Metadata       map[string]string `json:"metadata,omitempty"`
	PaymentID      string            `json:"paymentId"`
	ReviewReason   string            `json:"reviewReason,omitempty"`
	Status         string            `json:"status"`
	TxnID          string            `json:"txnId"`
	UpdatedAt      string            `json:"updatedAt"`
	Version        int64             `json:"version"`
}

func eventDataOf(p Payment) paymentEventData {
	return paymentEventData{AmountInrPaise: p.AmountINR, AmountMinor: p.Amount, Attention: p.Attention, Currency: p.Currency,
		FailedReason: p.FailedReason, FiraID: p.FiraID, Metadata: p.Metadata, PaymentID: p.ID,
		ReviewReason: p.ReviewReason, Status: p.Status, TxnID: p.TxnID, UpdatedAt: wire.Time(p.UpdatedAt), Version: p.Version}
}

// transitionChanges is a transition's audit record, fields alphabetical
// for the same reason.
type transitionChanges struct {
	FailedReason string `json:"failedReason,omitempty"`
	From         string `json:"from"`
	To           string `json:"to"`
}

// LoadPayment reads a payment by id regardless of owner from the read pool;
// the pipeline uses it to decide its next step outside any transaction.
func (g Payments) LoadPayment(ctx context.Context, id string) (Payment, error) {
	db := g.db
	p, err := scanPayment(db.r.QueryRowContext(ctx, "SELECT "+paymentCols+" FROM payments WHERE id = ?", id))
	return p, notFound(err, apperr.ErrPaymentNotFound, "payment")
}
