package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/money"
)

// How a receipt's GST rate was chosen (gst_values.rate_basis).
const (
	// RateSettlement: the time of supply is the settlement day, and the
	// settlement's own rate is that day's rate.
	RateSettlement = "settlement"
	// RateRecorded: the latest rate recorded on or before the time of
	// supply (its own day's, or the latest earlier one: RateDate says which).
	RateRecorded = "recorded"
	// RateFallback: no rate was recorded on or before the time of supply, so
	// the settlement's rate (of a later day) stands in, and says so.
	RateFallback = "fallback"
)

// GSTValue is a settled receipt's GST taxable value: its invoice value at
// the INR rate of its time of supply (CGST Rules r.34(2) with CGST s.13 /
// IGST s.20): the invoice date when the payment has one, else its IST
// settlement day. Amounts: InvoiceAmount in Currency's minor units, ValueINR
// in paise.
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
	RateBasis     string
	ValueINR      int64
}

// Basis says how the rate's date relates to the time of supply
// (india.RateBasis).
func (v GSTValue) Basis() string { return india.RateBasis(v.RateDate, v.Day, v.Day) }

// ByInvoice reports whether the invoice date placed the receipt.
func (v GSTValue) ByInvoice() bool { return v.InvoiceDate != "" }

// valueForGST fixes p's GST value once, when p is first reconciled or left
// pending (p is settled and has its INR value): it records the
// settlement's rate in the rate history, then values the invoice at the
// rate of its time of supply. The settlement time is the payment's own,
// whatever set it. A second call returns the stored value (the common
// first call is one insert, not a lookup and an insert).
func (tx *Tx) valueForGST(p Payment) (GSTValue, error) {
	if p.SettledAt == nil || p.AmountINR == nil {
		return GSTValue{}, fmt.Errorf("payment %s has no settled INR value to value for GST", p.ID)
	}
	settledAsOf := *p.SettledAt
	if at, ok, err := tx.settlementRateAsOf(p.ID); err != nil {
		return GSTValue{}, err
	} else if ok {
		settledAsOf = at
	}
	rate := p.SettlementRate
	if p.Currency == "INR" && rate == "" {
		rate = "1"
	}
	if err := tx.recordRate(p.Livemode, p.Currency, settledAsOf, rate); err != nil {
		return GSTValue{}, err
	}
	v := GSTValue{PaymentID: p.ID, CrossBorder: p.CrossBorder(), InvoiceDate: p.InvoiceDate, Day: india.DateOf(*p.SettledAt),
		Currency: p.Currency, InvoiceAmount: p.Amount, Rate: rate, RateAsOf: settledAsOf, RateBasis: RateSettlement}
	if p.InvoiceAmount > 0 {
		v.InvoiceAmount = p.InvoiceAmount
	}
	if p.InvoiceDate != "" && p.InvoiceDate != v.Day {
		v.Day = p.InvoiceDate
		r, at, ok, err := tx.rateOn(p.Livemode, p.Currency, p.InvoiceDate)
		switch {
		case err != nil:
			return GSTValue{}, err
		case ok:
			v.Rate, v.RateAsOf, v.RateBasis = r, at, RateRecorded
		default:
			v.RateBasis = RateFallback
		}
	}
	v.RateDate = india.DateOf(v.RateAsOf)
	if v.Rate == p.SettlementRate && v.InvoiceAmount == p.Amount {
		v.ValueINR = *p.AmountINR // the very conversion settlement made
	} else {
		value, err := convertAt(v.InvoiceAmount, v.Currency, v.Rate)
		if err != nil {
			return GSTValue{}, fmt.Errorf("GST value of %s: %w", p.ID, err)
		}
		v.ValueINR = value
	}
	res, err := tx.exec(`INSERT INTO gst_values (payment_id, user_id, livemode, cross_border, invoice_date, day,
		currency, invoice_amount, rate, rate_as_of, rate_date, rate_basis, value_inr, created_at)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (payment_id) DO NOTHING`, v.PaymentID, p.UserID, p.Livemode,
		v.CrossBorder, v.InvoiceDate, v.Day, v.Currency, v.InvoiceAmount, v.Rate, ms(v.RateAsOf), v.RateDate, v.RateBasis,
		v.ValueINR, ms(tx.now))
	if err != nil {
		return GSTValue{}, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return tx.gstValueOf(p.ID) // fixed before: the first value stands
	}
	return v, nil
}

// convertAt is minor units of currency at an INR rate, half-up to the paisa.
func convertAt(minor int64, currency, rate string) (int64, error) {
	cur, ok := money.Lookup(currency)
	if !ok {
		return 0, fmt.Errorf("unknown currency %s", currency)
	}
	r, err := money.ParseRate(rate)
	if err != nil {
		return 0, err
	}
	inr, _ := money.Lookup("INR")
	return money.ConvertChecked(minor, cur, r, inr)
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
func (db *DB) GSTValueOf(ctx context.Context, userID, paymentID string) (GSTValue, bool, error) {
	v, err := scanGSTValue(db.queryRow(ctx, "SELECT "+gstValueCols+" FROM gst_values WHERE payment_id = ? AND user_id = ?",
		paymentID, userID))
	if errors.Is(err, sql.ErrNoRows) {
		return v, false, nil
	}
	return v, err == nil, err
}

func (tx *Tx) settlementRateAsOf(paymentID string) (time.Time, bool, error) {
	var at int64
	err := tx.queryRow("SELECT as_of FROM settlement_rates WHERE payment_id = ?", paymentID).Scan(&at)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, false, nil
	}
	return fromMS(at), err == nil, err
}

// rateOn is the latest rate of currency recorded on or before the IST day
// (before the next day's first instant), for one mode.
func (tx *Tx) rateOn(livemode bool, currency, day string) (rate string, asOf time.Time, ok bool, err error) {
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
func (tx *Tx) RecordRates(livemode bool, rates []Rate) error {
	for _, r := range rates {
		if err := tx.recordRate(livemode, r.Currency, r.AsOf, r.Rate); err != nil {
			return err
		}
	}
	return nil
}
