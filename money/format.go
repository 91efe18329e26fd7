package money

import (
	"strconv"
	"strings"
)

// Format writes minor units as decimal text in major units with exactly
// cur.Exponent decimals ("1234.50", JPY "1234", KWD "1.005", "-0.05"), the
// form Parse reads back. Currencies from Lookup have Exponent 0–3; one
// outside 0–18 is clamped into that range, so a hand-built Currency can
// neither panic nor make Format allocate without bound.
func Format(minor int64, cur Currency) string {
	// Negate in uint64 so that math.MinInt64, which has no int64 opposite,
	// still formats.
	u := uint64(minor)
	if minor < 0 {
		u = -u
	}
	digits := strconv.FormatUint(u, 10)
	exp := min(max(cur.Exponent, 0), len(pow10)-1)
	if len(digits) <= exp {
		digits = strings.Repeat("0", exp-len(digits)+1) + digits
	}
	var b strings.Builder
	b.Grow(len(digits) + 2)
	if minor < 0 {
		b.WriteByte('-')
	}
	cut := len(digits) - exp
	b.WriteString(digits[:cut])
	if exp > 0 {
		b.WriteByte('.')
		b.WriteString(digits[cut:])
	}
	return b.String()
}
