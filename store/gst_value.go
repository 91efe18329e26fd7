package store

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/payoutd/payoutd/india"
)

// GSTValue is a settled receipt's GST taxable value as fixed when it was
// reconciled (india.ValueForGST says how it is taken). Amounts:
// InvoiceAmount in Currency's minor units, ValueINR in paise.
type GSTValue struct {
	PaymentID     string
	CrossBorder   bool
	InvoiceDate   string // "" when none was given
	Day           string // time of supply, YYYY-MM-DD (IST)
	Currency      string
	InvoiceAmount int64
	Rate          string
	RateAsOf      time.Time
	RateDate      string // IST date of RateAsOf
	RateBasis     string // india.GSTRateSettlement, GSTRateRecorded or GSTRateFallback
	ValueINR      int64
}

// Basis says how the rate's date relates to the time of supply
// (india.RateBasis).
func (v GSTValue) Basis() string { return india.RateBasis(v.RateDate, v.Day, v.Day) }

// ByInvoice reports whether the invoice date placed the receipt.
func (v GSTValue) ByInvoice() bool { return v.InvoiceDate != "" }

// recordGSTValue fixes a payment's GST value once, as it is reconciled,
// and adds the settlement's rate to the rate history. A second call
// returns the stored value (the common first call is one insert, not a
// lookup and an insert).
func (tx *Tx) recordGSTValue(p Payment, v GSTValue, settlement Rate) (GSTValue, error) {
	if err := tx.recordRate(p.Livemode, settlement.Currency, settlement.AsOf, settlement.Rate); err != nil {
		return GSTValue{}, err
	}
	res, err := tx.exec(`INSERT INTO gst_values (payment_id, user_id, livemode, cross_border, invoice_date, day,
		currency, invoice_amount, rate, rate_as_of, rate_date, rate_basis, value_inr, created_at)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (payment_id) DO NOTHING`, p.ID, p.UserID, p.Livemode,
		v.CrossBorder, v.InvoiceDate, v.Day, v.Currency, v.InvoiceAmount, v.Rate, ms(v.RateAsOf), v.RateDate, v.RateBasis,
		v.ValueINR, ms(tx.now))
	if err != nil {
		return GSTValue{}, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return tx.gstValueOf(p.ID) // fixed before: the first value stands
	}
	v.PaymentID = p.ID
	return v, nil
}

const gstValueCols = `payment_id, cross_border, invoice_date, day, currency, invoice_amount, rate, rate_as_of, rate_date,
	rate_basis, value_inr`

func scanGSTValue(row interface{ Scan(...any) error }) (GSTValue, error) {
	var v GSTValue
	var at int64
	err := row.Scan(&v.PaymentID, &v.CrossBorder, &v.InvoiceDate, &v.Day, &v.Currency, &v.InvoiceAmount, &v.Rate, &at,
		&v.RateDate, &v.RateBasis, &v.ValueINR)
	v.RateAsOf = fromMS(at)
	return v, err
}

func (tx *Tx) gstValueOf(paymentID string) (GSTValue, error) {
	return scanGSTValue(tx.queryRow("SELECT "+gstValueCols+" FROM gst_values WHERE payment_id = ?", paymentID))
}

// GSTValueOf reads the GST value fixed for one of the user's payments; ok
// is false before it has one (not yet settled, or settled before version 7).
func (g Tax) GSTValueOf(ctx context.Context, userID, paymentID string) (GSTValue, bool, error) {
	db := g.db
	v, err := scanGSTValue(db.queryRow(ctx, "SELECT "+gstValueCols+" FROM gst_values WHERE payment_id = ? AND user_id = ?",
		paymentID, userID))
	if errors.Is(err, sql.ErrNoRows) {
		return v, false, nil
	}
	return v, err == nil, err
}

// SettlementRateAsOf is when the rate a payment settled at was true; ok is
// false when the settlement kept no separate time (its own is the rate's).
// The time is recorded only by the transaction that books the settlement,
// so that transaction knows the answer without a read.
func (g TaxTx) SettlementRateAsOf(paymentID string) (time.Time, bool, error) {
	tx := g.tx
	if r := tx.rateAsOf; r.paymentID == paymentID {
		return r.asOf, true, nil
	}
	if tx.credit.paymentID == paymentID {
		return time.Time{}, false, nil // booked here, and no time recorded with it
	}
	var at int64
	err := tx.queryRow("SELECT as_of FROM settlement_rates WHERE payment_id = ?", paymentID).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, false, nil
	}
	return fromMS(at), err == nil, err
}

// RateOn is the latest rate of currency recorded on or before the IST day
// (before the next day's first instant), for one mode.
func (g TaxTx) RateOn(livemode bool, currency, day string) (rate string, asOf time.Time, ok bool, err error) {
	tx := g.tx
	d, err := time.ParseInLocation(time.DateOnly, day, india.IST)
	if err != nil {
		return "", time.Time{}, false, err
	}
	var at int64
	err = tx.queryRow(`SELECT rate, as_of FROM inr_rates WHERE livemode = ? AND currency = ? AND as_of < ?
		ORDER BY as_of DESC LIMIT 1`, livemode, currency, ms(d.AddDate(0, 0, 1))).Scan(&rate, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return "", time.Time{}, false, nil
	}
	return rate, fromMS(at), err == nil, err
}

func (tx *Tx) recordRate(livemode bool, currency string, asOf time.Time, rate string) error {
	_, err := tx.exec("INSERT OR IGNORE INTO inr_rates (livemode, currency, as_of, rate) VALUES (?,?,?,?)",
		livemode, currency, ms(asOf), rate)
	return err
}

// Rate is one INR rate with the time it was true.
type Rate struct {
	Currency string
	Rate     string // INR per unit, exact decimal text
	AsOf     time.Time
}

// RecordRates adds rates to the history of one mode (live quotes as they
// are loaded or fetched); a rate already recorded for its time is kept.
func (g TaxTx) RecordRates(livemode bool, rates []Rate) error {
	tx := g.tx
	for _, r := range rates {
		if err := tx.recordRate(livemode, r.Currency, r.AsOf, r.Rate); err != nil {
			return err
		}
	}
	return nil
}
