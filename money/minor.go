package money

import "fmt"

// MaxSafeInteger is 2^53 − 1, the largest integer a JSON parser that reads
// numbers as doubles (JavaScript's, and most others by default) holds
// exactly. Integers payoutd takes or sends as minor units stay at or below it.
const MaxSafeInteger int64 = 1<<53 - 1

// CheckMinor checks an amount given directly in minor units of cur (a
// request's amountMinor): greater than zero, at most MaxMajor major units
// and at most MaxSafeInteger.
func CheckMinor(minor int64, cur Currency) error {
	if cur.Exponent < 0 || cur.Exponent > maxExponent {
		return ErrInvalid
	}
	if minor <= 0 {
		return ErrNotPositive
	}
	if limit := MaxMajor * pow10[cur.Exponent]; minor > limit || minor > MaxSafeInteger {
		return detail(ErrTooLarge, fmt.Sprintf("must be at most %d (%d %s, or 2^53 − 1)", min(limit, MaxSafeInteger), MaxMajor, cur.Code))
	}
	return nil
}
