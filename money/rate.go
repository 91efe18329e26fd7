package money

import (
	"fmt"
	"strconv"
	"strings"
)

// RateDecimals is the precision of a Rate: 8 decimals, enough for any
// published FX rate and for the reciprocal of a weak currency (VND→INR is
// about 0.0032).
const RateDecimals = 8

// MaxRate is the largest rate ParseRate accepts, in target units per source
// unit.
const MaxRate int64 = 1_000_000_000

// Rate is an exact FX rate: how many units of the target currency one major
// unit of the source currency buys (USD→INR "83.2512"). The zero Rate is
// invalid; get one from ParseRate.
type Rate struct {
	units int64 // rate × 10^RateDecimals
}

// ParseRate reads a positive rate with at most RateDecimals significant
// decimals and at most MaxRate, with the same grammar and trailing-zero rule
// as Parse.
func ParseRate(s string) (Rate, error) {
	v, err := scaled(s, RateDecimals, MaxRate)
	switch err {
	case nil:
	case ErrTooManyDecimals:
		return Rate{}, detail(err, fmt.Sprintf("has more than %d decimal places", RateDecimals))
	case ErrTooLarge:
		return Rate{}, detail(err, fmt.Sprintf("must be at most %d", MaxRate))
	default:
		return Rate{}, err
	}
	if v == 0 {
		return Rate{}, ErrNotPositive
	}
	return Rate{units: v}, nil
}

// IsZero reports whether r is the zero Rate, which no conversion accepts.
func (r Rate) IsZero() bool { return r.units == 0 }

// String is the canonical text of r: trailing zeros trimmed but at least two
// decimals ("83.25", "83.2512", "1.00"), which ParseRate reads back exactly.
func (r Rate) String() string {
	digits := strconv.FormatInt(r.units, 10)
	if len(digits) <= RateDecimals {
		digits = strings.Repeat("0", RateDecimals-len(digits)+1) + digits
	}
	cut := len(digits) - RateDecimals
	frac := strings.TrimRight(digits[cut:], "0")
	for len(frac) < 2 {
		frac += "0"
	}
	return digits[:cut] + "." + frac
}
