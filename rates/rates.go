// Package rates holds the INR rates a payout's value is converted at.
package rates

import (
	"fmt"
	"os"
	"time"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/money"
)

// Table maps a currency code to its INR rate (INR per one major unit).
type Table map[string]money.Rate

// sandboxRates are indicative, fixed so sandbox results are reproducible.
var sandboxRates = map[string]string{
	"INR": "1", "USD": "83.25", "EUR": "90.10", "GBP": "105.40", "AUD": "54.80", "CAD": "61.20",
	"SGD": "62.00", "AED": "22.66", "CHF": "94.30", "JPY": "0.5600", "KWD": "270.50", "BHD": "220.80",
	"OMR": "216.20", "SAR": "22.19", "NZD": "50.10", "HKD": "10.66", "SEK": "7.90", "NOK": "7.75",
	"DKK": "12.08", "ZAR": "4.55", "CNY": "11.50", "KRW": "0.0620", "MYR": "17.70", "THB": "2.30",
}

// Default returns the embedded sandbox rate table.
func Default() Table {
	r := Table{}
	for c, s := range sandboxRates {
		rate, err := money.ParseRate(s)
		if err != nil {
			panic("bad sandbox rate " + c + ": " + err.Error())
		}
		r[c] = rate
	}
	return r
}

// Load reads a JSON object of currency → INR rate (decimal strings or
// numbers) and lays it over the sandbox table.
func Load(path string) (Table, error) {
	if path == "" {
		return Default(), nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(b, "rates file "+path)
}

// Parse reads a rates document, as Load does; source names it in errors.
// Either form of ParseQuotes is accepted; the as-of time matters only to
// live valuation (Source).
func Parse(b []byte, source string) (Table, error) {
	r := Default()
	quotes, err := ParseQuotes(b, time.Unix(0, 0))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	for c, q := range quotes {
		r[c] = q.Rate
	}
	return r, nil
}

// ToINR converts minor units of currency to paise at the table rate.
func (r Table) ToINR(minor int64, currency string) (int64, money.Rate, error) {
	cur, ok := money.Lookup(currency)
	rate, ok2 := r[currency]
	if !ok || !ok2 {
		// A caller-visible condition (a valid currency the rate table lacks),
		// so it is an application error: a 400, never a 500.
		return 0, money.Rate{}, &apperr.Error{Code: apperr.ErrValidation, Message: "no INR rate is configured for " + currency,
			Fields: map[string]string{"currency": "has no INR rate configured"}}
	}
	inr, _ := money.Lookup("INR")
	v, err := money.ConvertChecked(minor, cur, rate, inr)
	return v, rate, err
}
