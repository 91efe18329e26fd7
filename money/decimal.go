package money

// MaxMajor is the largest amount Parse accepts, in major units (10^12, one
// lakh crore rupees): far above any real payout, and small enough that
// MaxMajor × 10^Exponent always fits in int64.
const MaxMajor int64 = 1_000_000_000_000

// maxExponent is the largest currency exponent for which MaxMajor still fits
// in int64 minor units (10^12 × 10^6 < 2^63).
const maxExponent = 6

var pow10 = [...]int64{
	1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000,
	1_000_000_000, 10_000_000_000, 100_000_000_000, 1_000_000_000_000,
	10_000_000_000_000, 100_000_000_000_000, 1_000_000_000_000_000,
	10_000_000_000_000_000, 100_000_000_000_000_000, 1_000_000_000_000_000_000,
}

// splitDecimal checks the one grammar every amount, rate and percentage
// shares: digits, optionally a dot and more digits. Anything a float parser
// would also take (signs, exponents, "Inf", ".5", "5.") is refused so that
// the text the client sent is exactly the value that is stored.
func splitDecimal(s string) (whole, frac string, ok bool) {
	i := digitRun(s)
	if i == 0 {
		return "", "", false
	}
	if i == len(s) {
		return s, "", true
	}
	if s[i] != '.' {
		return "", "", false
	}
	rest := s[i+1:]
	j := digitRun(rest)
	if j == 0 || j != len(rest) {
		return "", "", false
	}
	return s[:i], rest, true
}

func digitRun(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// scaled turns decimal text into an integer count of 10^-scale units, at most
// limit×10^scale. Zeros past scale are accepted because they do not change the
// value ("10.500" is exactly 10.50); any other digit there is rounding the
// caller did not ask for. Lengths are checked before any arithmetic, so a
// 10,000-digit input costs one pass and cannot overflow.
func scaled(s string, scale int, limit int64) (int64, error) {
	if scale < 0 || scale >= len(pow10) || limit < 0 || limit > (1<<63-1)/pow10[scale] {
		return 0, ErrInvalid
	}
	whole, frac, ok := splitDecimal(s)
	if !ok {
		return 0, ErrFormat
	}
	if len(frac) > scale {
		if trimRight(frac[scale:]) != "" {
			return 0, ErrTooManyDecimals
		}
		frac = frac[:scale]
	}
	whole = trimLeft(whole)
	if len(whole) > 18 { // 10^18 > any limit that passes the guard above
		return 0, ErrTooLarge
	}
	w := atoi(whole)
	f := atoi(frac) * pow10[scale-len(frac)]
	if w > limit || (w == limit && f > 0) {
		return 0, ErrTooLarge
	}
	return w*pow10[scale] + f, nil
}

// trimLeft drops leading zeros; "007" is 7.
func trimLeft(s string) string {
	for len(s) > 0 && s[0] == '0' {
		s = s[1:]
	}
	return s
}

// trimRight drops trailing zeros.
func trimRight(s string) string {
	for len(s) > 0 && s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	return s
}

// atoi reads at most 18 ASCII digits that splitDecimal has already checked.
func atoi(s string) int64 {
	var n int64
	for i := range len(s) {
		n = n*10 + int64(s[i]-'0')
	}
	return n
}
