// Package wire is how payoutd writes times and money on the wire: in API
// responses, event payloads and webhook bodies alike. It is a leaf: every
// layer may import it.
package wire

import (
	"encoding/json"
	"time"

	"github.com/payoutd/payoutd/money"
)

// TimeLayout is RFC 3339 in UTC with exactly three fractional digits, so
// timestamps sort as strings and round-trip the stored milliseconds.
const TimeLayout = "2006-01-02T15:04:05.000Z"

// Time formats t in TimeLayout.
func Time(t time.Time) string { return t.UTC().Format(TimeLayout) }

// Amount renders minor units as an exact JSON number in major units, with
// the currency's decimals (an unknown currency gets two).
func Amount(minor int64, currency string) json.Number {
	cur, ok := money.Lookup(currency)
	if !ok {
		cur = money.Currency{Code: currency, Exponent: 2}
	}
	return json.Number(money.Format(minor, cur))
}
