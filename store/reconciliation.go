package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/payoutd/payoutd/apperr"
)

// Reconciliation statuses.
const (
	Reconciled            = "RECONCILED"
	PendingReconciliation = "PENDING_RECONCILIATION"
)

// Reconciliation matches a settled payment to its ledger credit and invoice.
type Reconciliation struct {
	PaymentID     string
	UserID        string
	Livemode      bool
	Status        string
	InvoiceRef    string
	FIRAID        string
	LedgerEntryID string
	Reason        string
	ResolvedBy    string
	Note          string
	Exception     bool
	AmountINR     int64
	SettledAt     time.Time
	ReconciledAt  *time.Time
	CreatedAt     time.Time
}

const reconCols = `r.payment_id, r.user_id, r.livemode, r.status, r.invoice_ref, coalesce(f.id, ''), r.ledger_entry_id, r.reason,
	r.resolved_by, r.note, r.exception, r.amount_inr, r.settled_at, r.reconciled_at, r.created_at`

const reconFrom = ` FROM reconciliations r LEFT JOIN firas f ON f.payment_id = r.payment_id `

func scanRecon(row interface{ Scan(...any) error }) (Reconciliation, error) {
	var r Reconciliation
	var settled, created int64
	var reconciled sql.NullInt64
	err := row.Scan(&r.PaymentID, &r.UserID, &r.Livemode, &r.Status, &r.InvoiceRef, &r.FIRAID, &r.LedgerEntryID, &r.Reason,
		&r.ResolvedBy, &r.Note, &r.Exception, &r.AmountINR, &settled, &reconciled, &created)
	r.SettledAt, r.ReconciledAt, r.CreatedAt = fromMS(settled), nullMS(reconciled), fromMS(created)
	return r, err
}

// settlementCredit finds the INR credit a settlement posted for a payment.
func (tx *Tx) settlementCredit(p Payment) (id string, amount int64, err error) {
	if c := tx.credit; c.paymentID == p.ID {
		return c.entryID, c.amount, nil
	}
	err = tx.queryRow(settlementCreditQuery, p.ID).Scan(&id, &amount)
	return id, amount, err
}

// settlementCreditQuery repeats the partial index's own condition (a
// non-empty payment_id) so the planner may use ledger_txns_once: it cannot
// prove on its own that a bound parameter is not empty.
const settlementCreditQuery = `SELECT lp.id, lp.amount FROM ledger_postings lp
	JOIN ledger_txns lt ON lt.id = lp.txn_id
	JOIN ledger_accounts la ON la.id = lp.account_id
	WHERE lt.payment_id = ? AND lt.payment_id != '' AND lt.kind = 'settlement' AND la.kind = 'settlement'`

// Reconcile records the reconciliation of a settled payment: RECONCILED when
// it carries an invoice reference and its ledger credit equals its INR value,
// otherwise PENDING_RECONCILIATION with the reason. The payment's GST value
// (gst, taken at the rate of its time of supply, and the settlement's rate,
// which joins the rate history) is fixed with it. Running it again returns
// the existing record unchanged.
//
// The record is inserted first and read back only when one already existed
// (ON CONFLICT DO NOTHING): a lookup before every insert cost the settling
// transaction a join it almost never needed.
func (g LedgerTx) Reconcile(p Payment, gst GSTValue, settlement Rate) (Reconciliation, error) {
	tx := g.tx
	entryID, credit, err := tx.settlementCredit(p)
	if err != nil {
		if r, ferr := tx.findRecon(p.UserID, p.ID); ferr == nil {
			return r, nil
		}
		return Reconciliation{}, err
	}
	r := Reconciliation{PaymentID: p.ID, UserID: p.UserID, Livemode: p.Livemode, InvoiceRef: p.InvoiceRef,
		LedgerEntryID: entryID, AmountINR: credit, SettledAt: *p.SettledAt, CreatedAt: tx.now}
	switch {
	case p.InvoiceRef == "":
		r.Status, r.Reason = PendingReconciliation, "NO_INVOICE_REF"
	case p.AmountINR == nil || credit != *p.AmountINR:
		r.Status, r.Reason = PendingReconciliation, "AMOUNT_MISMATCH"
	default:
		now := tx.now
		r.Status, r.ReconciledAt, r.ResolvedBy = Reconciled, &now, "auto"
	}
	inserted, err := tx.recordReconciliation(r, p, gst, settlement)
	if err != nil {
		return r, err
	}
	if !inserted {
		return tx.findRecon(p.UserID, p.ID)
	}
	if err := tx.Audit(p.UserID, p.Livemode, "reconciliation."+map[bool]string{true: "reconciled", false: "pending"}[r.Status == Reconciled],
		"reconciliation", p.ID, map[string]any{"status": r.Status, "reason": r.Reason}); err != nil {
		return r, err
	}
	if r.Status == PendingReconciliation {
		return r, tx.emit(p.UserID, p.Livemode, "reconciliation.pending", p.ID,
			map[string]any{"paymentId": p.ID, "reason": r.Reason, "version": p.Version})
	}
	return r, nil
}

// recordReconciliation inserts r unless the payment already has a record,
// and reports whether it did. It is the only code of the service that inserts
// reconciliations: the payment's GST value is fixed here (recordGSTValue), and
// a RECONCILED one is added to its tax and GST days in the same transaction
// (addTaxDay), where a trigger once queued it for the next refresh to look
// up again.
func (tx *Tx) recordReconciliation(r Reconciliation, p Payment, gst GSTValue, settlement Rate) (bool, error) {
	var reconciledAt any
	if r.ReconciledAt != nil {
		reconciledAt = ms(*r.ReconciledAt)
	}
	res, err := tx.exec(`INSERT INTO reconciliations (payment_id, user_id, livemode, status, invoice_ref, ledger_entry_id,
		reason, resolved_by, amount_inr, settled_at, reconciled_at, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT (payment_id) DO NOTHING`,
		r.PaymentID, r.UserID, r.Livemode, r.Status, r.InvoiceRef, r.LedgerEntryID, r.Reason, r.ResolvedBy, r.AmountINR,
		ms(r.SettledAt), reconciledAt, ms(tx.now))
	if err != nil {
		return false, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return false, nil
	}
	v, err := tx.recordGSTValue(p, gst, settlement)
	if err != nil {
		return true, err
	}
	if r.Status == Reconciled {
		return true, tx.addTaxDay(r, p.CounterpartyCountry, v)
	}
	return true, nil
}

func (tx *Tx) findRecon(userID, paymentID string) (Reconciliation, error) {
	r, err := scanRecon(tx.queryRow("SELECT "+reconCols+reconFrom+"WHERE r.payment_id = ? AND r.user_id = ?", paymentID, userID))
	return r, notFound(err, apperr.ErrNotFound, "reconciliation record")
}

// FindReconciliation reads the user's reconciliation record for a payment.
func (g Ledger) FindReconciliation(ctx context.Context, userID, paymentID string) (Reconciliation, error) {
	db := g.db
	r, err := scanRecon(db.queryRow(ctx, "SELECT "+reconCols+reconFrom+"WHERE r.payment_id = ? AND r.user_id = ?", paymentID, userID))
	return r, notFound(err, apperr.ErrNotFound, "reconciliation record")
}

// ResolveReconciliation manually reconciles a pending record; resolving one
// already RECONCILED is a conflict.
func (g LedgerTx) ResolveReconciliation(userID, paymentID, invoiceRef, note string, exception bool) (Reconciliation, error) {
	tx := g.tx
	r, err := tx.findRecon(userID, paymentID)
	if err != nil {
		return r, err
	}
	if r.Status == Reconciled {
		return r, apperr.Errorf(apperr.ErrInvalidState, "payment %s is already reconciled", paymentID)
	}
	if invoiceRef == "" {
		invoiceRef = r.InvoiceRef
	}
	now := tx.now
	_, err = tx.exec(`UPDATE reconciliations SET status = ?, invoice_ref = ?, note = ?, exception = ?, resolved_by = 'manual',
		reconciled_at = ? WHERE payment_id = ?`, Reconciled, invoiceRef, note, exception, ms(now), paymentID)
	if err != nil {
		return r, err
	}
	r.Status, r.InvoiceRef, r.Note, r.Exception, r.ResolvedBy, r.ReconciledAt = Reconciled, invoiceRef, note, exception, "manual", &now
	if err := tx.Audit(userID, r.Livemode, "reconciliation.resolved", "reconciliation", paymentID,
		map[string]any{"invoiceRef": invoiceRef, "note": note, "markAsException": exception}); err != nil {
		return r, err
	}
	// The payment's version orders this event among the payment's others.
	var version int64
	if err := tx.queryRow("SELECT version FROM payments WHERE id = ?", paymentID).Scan(&version); err != nil {
		return r, err
	}
	return r, tx.emit(userID, r.Livemode, "reconciliation.resolved", paymentID,
		map[string]any{"paymentId": paymentID, "resolvedBy": "manual", "version": version})
}
