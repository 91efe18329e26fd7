package money

import "fmt"

// Parse converts an amount in major units, written as exact decimal text (a
// json.Number or a JSON string), into minor units of cur: Parse("12.50", USD)
// is 1250.
//
// The text is one or more ASCII digits, optionally followed by a dot and one
// or more digits; leading zeros are allowed ("007" is 7). Signs, exponents,
// spaces, ".5" and "5." are ErrFormat. More decimals than cur.Exponent are
// ErrTooManyDecimals, zeros included ("10.500" USD, "100.0" JPY): the API
// document's pattern for each currency allows exactly that many, and the
// server accepts what the document says. Zero is ErrNotPositive, and more
// than MaxMajor major units is ErrTooLarge.
//
// Errors match the sentinels with errors.Is; their text names the currency
// and is meant to be shown as a field error.
func Parse(text string, cur Currency) (int64, error) {
	if cur.Exponent < 0 || cur.Exponent > maxExponent {
		return 0, ErrInvalid
	}
	if _, frac, ok := splitDecimal(text); ok && len(frac) > cur.Exponent {
		return 0, detail(ErrTooManyDecimals, fmt.Sprintf("has more decimal places than %s allows (%d)", cur.Code, cur.Exponent))
	}
	v, err := scaled(text, cur.Exponent, MaxMajor)
	switch err {
	case nil:
	case ErrTooManyDecimals:
		return 0, detail(err, fmt.Sprintf("has more decimal places than %s allows (%d)", cur.Code, cur.Exponent))
	case ErrTooLarge:
		return 0, detail(err, fmt.Sprintf("must be at most %d %s", MaxMajor, cur.Code))
	default:
		return 0, err
	}
	if v == 0 {
		return 0, ErrNotPositive
	}
	return v, nil
}
