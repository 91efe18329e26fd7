package money

import (
	"math"
	"math/big"
)

// ConvertChecked converts minor units of from into minor units of to at rate
// r: minor × r × 10^to.Exponent / 10^from.Exponent, computed exactly and
// rounded half-up, i.e. a remainder of exactly one half rounds away from
// zero (0.5 paisa → 1 paisa, -0.5 → -1). A result outside int64 is
// ErrOverflow; a zero Rate or an exponent outside 0–18 is ErrInvalid.
//
// The product is taken in math/big: before the division brings it back
// down, minor × rate × 10^to.Exponent can reach 2^63 × 10^17 × 10^18, past
// int64 for any real amount and past 128 bits at the extremes, and exactness
// here matters more than the few hundred nanoseconds it costs.
func ConvertChecked(minor int64, from Currency, r Rate, to Currency) (int64, error) {
	if r.units <= 0 || !validExponent(from.Exponent) || !validExponent(to.Exponent) {
		return 0, ErrInvalid
	}
	n := new(big.Int).SetInt64(minor)
	n.Mul(n, big.NewInt(r.units))
	n.Mul(n, big.NewInt(pow10[to.Exponent]))
	d := new(big.Int).Mul(big.NewInt(pow10[RateDecimals]), big.NewInt(pow10[from.Exponent]))
	q, rem := n.QuoRem(n, d, new(big.Int)) // truncates toward zero
	if rem.Abs(rem).Lsh(rem, 1).Cmp(d) >= 0 {
		// The rate is positive, so the result has the sign of minor.
		if minor < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	if !q.IsInt64() {
		return 0, ErrOverflow
	}
	return q.Int64(), nil
}

// Convert is ConvertChecked for callers whose inputs are already bounded
// (amounts from Parse and realistic rates cannot overflow). Rather than
// panic it saturates: an overflow gives math.MaxInt64 or math.MinInt64 and
// an invalid rate or currency gives 0. Use ConvertChecked wherever the rate
// comes from outside the program.
func Convert(minor int64, from Currency, r Rate, to Currency) int64 {
	v, err := ConvertChecked(minor, from, r, to)
	switch {
	case err == ErrOverflow && minor < 0:
		return math.MinInt64
	case err == ErrOverflow:
		return math.MaxInt64
	case err != nil:
		return 0
	}
	return v
}

func validExponent(e int) bool { return e >= 0 && e < len(pow10) }
