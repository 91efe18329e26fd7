package money

import (
	"math"
	"math/bits"
)

// ParsePercent reads a percentage from 0 to 100 inclusive with at most two
// significant decimals and returns it in hundredths of a percent (basis
// points): "12.5" is 1250, "100" is 10000, "0" is 0. The grammar and the
// trailing-zero rule are those of Parse; unlike Parse, zero is allowed
// (a tax reserve of 0% is a real setting).
func ParsePercent(text string) (int64, error) {
	v, err := scaled(text, 2, 100)
	switch err {
	case nil:
		return v, nil
	case ErrFormat:
		return 0, detail(err, "must be a decimal number from 0 to 100")
	case ErrTooManyDecimals:
		return 0, detail(err, "has more than 2 decimal places")
	case ErrTooLarge:
		return 0, detail(err, "must be at most 100")
	}
	return 0, err
}

// PercentOf returns minor × hundredthsOfPercent / 10000 rounded half-up
// (halves away from zero): the 12.5% tax reserve on 1001 paise is
// PercentOf(1001, 1250) = 125 (125.125 rounded). With a rate from
// ParsePercent the result never exceeds |minor|; for other rates the
// product is exact in 128 bits and a result outside int64 saturates to
// math.MaxInt64 or math.MinInt64 instead of wrapping.
func PercentOf(minor int64, hundredthsOfPercent int64) int64 {
	negative := (minor < 0) != (hundredthsOfPercent < 0)
	hi, lo := bits.Mul64(abs(minor), abs(hundredthsOfPercent))
	lo, carry := bits.Add64(lo, 5000, 0)
	hi += carry
	if hi >= 10000 { // the quotient would not fit in 64 bits
		return saturate(negative)
	}
	q, _ := bits.Div64(hi, lo, 10000)
	switch {
	case q == 0:
		return 0
	case negative && q <= 1<<63:
		return int64(-q)
	case !negative && q <= math.MaxInt64:
		return int64(q)
	}
	return saturate(negative)
}

// abs negates in uint64 so that math.MinInt64 has an absolute value.
func abs(v int64) uint64 {
	if v < 0 {
		return -uint64(v)
	}
	return uint64(v)
}

func saturate(negative bool) int64 {
	if negative {
		return math.MinInt64
	}
	return math.MaxInt64
}
