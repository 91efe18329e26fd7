package stellar

import (
	"fmt"
	"math"

	"github.com/payoutd/payoutd/money"
)

// Decimals is the precision of every Stellar amount: one unit is 10^7
// stroops, the integer the network actually stores.
const Decimals = 7

// ToStroops converts minor units of cur to stroops, exactly: a currency
// with more than seven decimals, or an amount too large for Stellar's
// int64, is refused rather than rounded.
func ToStroops(minor int64, cur money.Currency) (int64, error) {
	if minor <= 0 {
		return 0, fmt.Errorf("amount %d must be positive", minor)
	}
	if cur.Exponent > Decimals {
		return 0, fmt.Errorf("%s has %d decimals; Stellar carries at most %d", cur.Code, cur.Exponent, Decimals)
	}
	f := pow10(Decimals - cur.Exponent)
	if minor > math.MaxInt64/f {
		return 0, fmt.Errorf("%d %s minor units exceed the largest Stellar amount", minor, cur.Code)
	}
	return minor * f, nil
}

// FromStroops converts stroops to minor units of cur, rounding down: dust
// below one minor unit (someone sent 0.0000001 USDC) is returned apart, so
// a balance never counts more than can be paid out of it.
func FromStroops(stroops int64, cur money.Currency) (minor, dust int64, err error) {
	if stroops < 0 {
		return 0, 0, fmt.Errorf("negative amount %d stroops", stroops)
	}
	if cur.Exponent > Decimals {
		return 0, 0, fmt.Errorf("%s has %d decimals; Stellar carries at most %d", cur.Code, cur.Exponent, Decimals)
	}
	f := pow10(Decimals - cur.Exponent)
	return stroops / f, stroops % f, nil
}

func pow10(n int) int64 {
	v := int64(1)
	for range n {
		v *= 10
	}
	return v
}
