package store

import (
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/wire"
)

// AccountTaxPaid is the user's INR account of tax paid out of the reserve:
// a payment drawn from the reserve moves there, so the reserve shows only
// what is still set aside and Σ postings stays zero.
const AccountTaxPaid = "tax_paid"

// Statuses of a tax payment.
const (
	TaxPaymentRecorded = "recorded"
	TaxPaymentReversed = "reversed"
)

// TaxPayment is one challan of advance or self-assessment tax.
type TaxPayment struct {
	ID            string
	UserID        string
	Livemode      bool
	FY            string // "2025-26"
	Kind          string // advance or self_assessment
	Amount        int64  // paise
	PaidOn        string // date of deposit in India, "YYYY-MM-DD"
	BSRCode       string
	ChallanSerial string
	FromReserve   bool
	Note          string
	LedgerTxnID   string // the reserve draw, when FromReserve
	ReversalTxnID string
	CreatedAt     time.Time
	ReversedAt    *time.Time
}

// Status is recorded or reversed.
func (p TaxPayment) Status() string {
	if p.ReversedAt != nil {
		return TaxPaymentReversed
	}
	return TaxPaymentRecorded
}

const taxPaymentCols = `id, user_id, livemode, fy, kind, amount, paid_on, bsr_code, challan_serial, from_reserve, note,
	ledger_txn_id, reversal_txn_id, created_at, reversed_at`

func scanTaxPayment(row interface{ Scan(...any) error }) (TaxPayment, error) {
	var p TaxPayment
	var created int64
	var reversed sql.NullInt64
	err := row.Scan(&p.ID, &p.UserID, &p.Livemode, &p.FY, &p.Kind, &p.Amount, &p.PaidOn, &p.BSRCode, &p.ChallanSerial,
		&p.FromReserve, &p.Note, &p.LedgerTxnID, &p.ReversalTxnID, &created, &reversed)
	p.CreatedAt, p.ReversedAt = fromMS(created), nullMS(reversed)
	return p, err
}

// RecordTaxPayment writes a challan the caller has validated. With
// FromReserve the amount moves from the tax reserve to the tax-paid account
// in this transaction; more than the reserve holds is apperr.ErrInsufficientFunds
// and nothing is written. A challan already recorded (same BSR code, date
// and serial, not reversed) is apperr.ErrConflict.
func (g TaxTx) RecordTaxPayment(p TaxPayment) (TaxPayment, error) {
	tx := g.tx
	if p.Amount <= 0 || (p.Kind != india.PaymentAdvance && p.Kind != india.PaymentSelfAssessment) {
		return TaxPayment{}, apperr.Errorf(apperr.ErrValidation, "a tax payment needs a known kind and a positive amount")
	}
	p.ID, p.CreatedAt, p.ReversedAt, p.ReversalTxnID = NewID("taxp"), tx.now, nil, ""
	if p.FromReserve {
		var err error
		if p.LedgerTxnID, err = tx.drawTaxReserve(p); err != nil {
			return TaxPayment{}, err
		}
	}
	_, err := tx.exec(`INSERT INTO tax_payments (id, user_id, livemode, fy, kind, amount, paid_on, bsr_code,
		challan_serial, from_reserve, note, ledger_txn_id, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		p.ID, p.UserID, p.Livemode, p.FY, p.Kind, p.Amount, p.PaidOn, p.BSRCode, p.ChallanSerial, p.FromReserve, p.Note,
		p.LedgerTxnID, ms(p.CreatedAt))
	if isUniqueViolation(err) {
		return TaxPayment{}, apperr.Errorf(apperr.ErrConflict, "challan %s/%s/%s is already recorded; reverse that entry first to record it again",
			p.BSRCode, p.PaidOn, p.ChallanSerial)
	}
	if err != nil {
		return TaxPayment{}, err
	}
	if err := tx.Audit(p.UserID, p.Livemode, "tax.payment.recorded", "tax_payment", p.ID, taxPaymentChanges(p)); err != nil {
		return TaxPayment{}, err
	}
	return p, tx.emit(p.UserID, p.Livemode, "tax.payment.recorded", p.ID, taxPaymentEventData(p))
}

// ReverseTaxPayment marks a wrong entry reversed; one drawn from the reserve
// gets a reversing ledger transaction that puts the amount back. Another
// user's payment is not found; a second reversal is apperr.ErrInvalidState.
func (g TaxTx) ReverseTaxPayment(userID, id string) (TaxPayment, error) {
	tx := g.tx
	p, err := scanTaxPayment(tx.queryRow("SELECT "+taxPaymentCols+" FROM tax_payments WHERE id = ? AND user_id = ?", id, userID))
	if err != nil {
		return TaxPayment{}, notFound(err, apperr.ErrNotFound, "tax payment")
	}
	if p.ReversedAt != nil {
		return TaxPayment{}, apperr.Errorf(apperr.ErrInvalidState, "tax payment %s was already reversed at %s", p.ID, wire.Time(*p.ReversedAt))
	}
	if p.FromReserve {
		if p.ReversalTxnID, err = tx.returnTaxReserve(p); err != nil {
			return TaxPayment{}, err
		}
	}
	now := tx.now
	res, err := tx.exec("UPDATE tax_payments SET reversed_at = ?, reversal_txn_id = ? WHERE id = ? AND reversed_at IS NULL",
		ms(now), p.ReversalTxnID, p.ID)
	if err != nil {
		return TaxPayment{}, err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return TaxPayment{}, apperr.Errorf(apperr.ErrInvalidState, "tax payment %s was already reversed", p.ID)
	}
	p.ReversedAt = &now
	if err := tx.Audit(p.UserID, p.Livemode, "tax.payment.reversed", "tax_payment", p.ID, taxPaymentChanges(p)); err != nil {
		return TaxPayment{}, err
	}
	return p, tx.emit(p.UserID, p.Livemode, "tax.payment.reversed", p.ID, taxPaymentEventData(p))
}

// drawTaxReserve posts reserve → tax paid for p and returns the ledger
// transaction. The reserve is read in this transaction, on the single
// writer, so two draws can never both spend the same balance.
func (tx *Tx) drawTaxReserve(p TaxPayment) (string, error) {
	var reserve string
	var balance int64
	err := tx.queryRow(`SELECT id, balance FROM ledger_accounts WHERE user_id = ? AND livemode = ? AND kind = ?
		AND currency = 'INR' AND ref = ''`, p.UserID, p.Livemode, AccountTaxReserve).Scan(&reserve, &balance)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", err
	}
	if balance < p.Amount {
		inr, _ := money.Lookup("INR")
		return "", apperr.Errorf(apperr.ErrInsufficientFunds, "the tax reserve holds INR %s, less than the INR %s to pay from it",
			money.Format(balance, inr), money.Format(p.Amount, inr))
	}
	paid, err := tx.ledgerAccount(p.UserID, p.Livemode, AccountTaxPaid, "INR", "")
	if err != nil {
		return "", err
	}
	return tx.post(LedgerTxn{UserID: p.UserID, Livemode: p.Livemode, Kind: "tax_payment",
		Description: fmt.Sprintf("Tax paid from reserve: %s FY %s, challan %s/%s/%s (%s)", kindLabel(p.Kind), p.FY, p.BSRCode, p.PaidOn, p.ChallanSerial, p.ID),
		Postings:    []Posting{{AccountID: reserve, Amount: -p.Amount, Currency: "INR"}, {AccountID: paid, Amount: p.Amount, Currency: "INR"}}})
}

// returnTaxReserve posts the reversal of drawTaxReserve.
func (tx *Tx) returnTaxReserve(p TaxPayment) (string, error) {
	reserve, err := tx.ledgerAccount(p.UserID, p.Livemode, AccountTaxReserve, "INR", "")
	if err != nil {
		return "", err
	}
	paid, err := tx.ledgerAccount(p.UserID, p.Livemode, AccountTaxPaid, "INR", "")
	if err != nil {
		return "", err
	}
	return tx.post(LedgerTxn{UserID: p.UserID, Livemode: p.Livemode, Kind: "tax_payment_reversal",
		Description: fmt.Sprintf("Reversal of tax payment %s: back to the tax reserve", p.ID),
		Postings:    []Posting{{AccountID: paid, Amount: -p.Amount, Currency: "INR"}, {AccountID: reserve, Amount: p.Amount, Currency: "INR"}}})
}

func kindLabel(kind string) string {
	if kind == india.PaymentAdvance {
		return "advance tax"
	}
	return "self-assessment tax"
}

// taxPaymentChanges is the audit row's content: the challan and its ledger
// transactions, amounts in paise like every audit row.
func taxPaymentChanges(p TaxPayment) map[string]any {
	c := map[string]any{"fy": p.FY, "kind": p.Kind, "amount": p.Amount, "paidOn": p.PaidOn, "bsrCode": p.BSRCode,
		"challanSerial": p.ChallanSerial, "fromReserve": p.FromReserve, "status": p.Status()}
	if p.LedgerTxnID != "" {
		c["ledgerTxnId"] = p.LedgerTxnID
	}
	if p.ReversalTxnID != "" {
		c["reversalTxnId"] = p.ReversalTxnID
	}
	return c
}

// taxPaymentEventData is the payload of tax.payment.recorded and
// tax.payment.reversed; the amount is INR as an exact decimal number, with
// its exact paise beside it.
func taxPaymentEventData(p TaxPayment) map[string]any {
	return map[string]any{"taxPaymentId": p.ID, "fy": p.FY, "kind": p.Kind, "amount": wire.Amount(p.Amount, "INR"), "amountPaise": p.Amount,
		"paidOn": p.PaidOn, "fromReserve": p.FromReserve, "status": p.Status()}
}
