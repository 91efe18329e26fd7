package money

import (
	"errors"
	"strings"
	"testing"

	"github.com/matryer/is"
)

func TestParse(t *testing.T) {
	usd := mustLookup(t, "USD")
	jpy := mustLookup(t, "JPY")
	kwd := mustLookup(t, "KWD")
	inr := mustLookup(t, "INR")
	tests := []struct {
		name string
		text string
		cur  Currency
		want int64
		err  error
	}{
		{"OK", "12.50", usd, 1250, nil},
		{"OKWhole", "12", usd, 1200, nil},
		{"OKOneDecimal", "12.5", usd, 1250, nil},
		{"OKSmallest", "0.01", usd, 1, nil},
		{"OKPointOne", "0.1", usd, 10, nil},
		{"OKPointTwo", "0.2", usd, 20, nil},
		{"OKPointThree", "0.3", usd, 30, nil},
		{"OKLeadingZeros", "007", usd, 700, nil},
		{"OKLeadingZerosFraction", "00.07", usd, 7, nil},
		{"OKManyLeadingZeros", strings.Repeat("0", 10000) + "1", usd, 100, nil},
		{"OKINR", "83.25", inr, 8325, nil},
		{"OKMax", "1000000000000", usd, 100_000_000_000_000, nil},
		{"OKMaxZeros", "1000000000000.00", usd, 100_000_000_000_000, nil},
		{"OKJustBelowMax", "999999999999.99", usd, 99_999_999_999_999, nil},
		{"OKJPY", "1234", jpy, 1234, nil},
		{"OKJPYMax", "1000000000000", jpy, 1_000_000_000_000, nil},
		{"OKKWD", "1.005", kwd, 1005, nil},
		{"OKKWDShort", "1.5", kwd, 1500, nil},
		{"OKKWDMax", "1000000000000.000", kwd, 1_000_000_000_000_000, nil},

		{"ErrEmpty", "", usd, 0, ErrFormat},
		{"ErrPlus", "+1", usd, 0, ErrFormat},
		{"ErrMinus", "-1", usd, 0, ErrFormat},
		{"ErrMinusZero", "-0", usd, 0, ErrFormat},
		{"ErrExponent", "1e5", usd, 0, ErrFormat},
		{"ErrExponentUpper", "1E5", usd, 0, ErrFormat},
		{"ErrExponentFraction", "1.5e2", usd, 0, ErrFormat},
		{"ErrLeadingSpace", " 1", usd, 0, ErrFormat},
		{"ErrTrailingSpace", "1 ", usd, 0, ErrFormat},
		{"ErrNewline", "1\n", usd, 0, ErrFormat},
		{"ErrHex", "0x10", usd, 0, ErrFormat},
		{"ErrNoWhole", ".5", usd, 0, ErrFormat},
		{"ErrNoFraction", "5.", usd, 0, ErrFormat},
		{"ErrDot", ".", usd, 0, ErrFormat},
		{"ErrTwoDots", "1.2.3", usd, 0, ErrFormat},
		{"ErrComma", "1,000", usd, 0, ErrFormat},
		{"ErrDecimalComma", "1,5", usd, 0, ErrFormat},
		{"ErrUnderscore", "1_000", usd, 0, ErrFormat},
		{"ErrQuoted", `"1"`, usd, 0, ErrFormat},
		{"ErrInf", "Inf", usd, 0, ErrFormat},
		{"ErrNaN", "NaN", usd, 0, ErrFormat},
		{"ErrUnicodeDigit", "١٢", usd, 0, ErrFormat},
		{"ErrFullwidthDigit", "１", usd, 0, ErrFormat},

		{"ErrTooManyDecimals", "0.001", usd, 0, ErrTooManyDecimals},
		{"ErrTooManyDecimalsTrailing", "1.0010", usd, 0, ErrTooManyDecimals},
		{"ErrTooManyDecimalsFar", "1.00" + strings.Repeat("0", 10000) + "1", usd, 0, ErrTooManyDecimals},
		{"ErrJPYDecimals", "100.5", jpy, 0, ErrTooManyDecimals},
		{"ErrKWDDecimals", "1.0005", kwd, 0, ErrTooManyDecimals},
		// Zeros count too: the document's pattern for a currency allows
		// exactly its number of decimals.
		{"ErrTrailingZeros", "10.500", usd, 0, ErrTooManyDecimals},
		{"ErrManyTrailingZeros", "1.10" + strings.Repeat("0", 10000), usd, 0, ErrTooManyDecimals},
		{"ErrJPYTrailingZero", "1500.0", jpy, 0, ErrTooManyDecimals},
		{"ErrKWDFourDecimals", "1.2340", kwd, 0, ErrTooManyDecimals},

		{"ErrZero", "0", usd, 0, ErrNotPositive},
		{"ErrZeroDecimals", "0.00", usd, 0, ErrNotPositive},
		{"ErrZeroManyZeros", "000.00", usd, 0, ErrNotPositive},

		{"ErrOverMaxByCent", "1000000000000.01", usd, 0, ErrTooLarge},
		{"ErrOverMax", "1000000000001", usd, 0, ErrTooLarge},
		{"ErrOverMaxJPY", "1000000000001", jpy, 0, ErrTooLarge},
		{"ErrOverMaxKWD", "1000000000000.001", kwd, 0, ErrTooLarge},
		{"ErrInt64", "9223372036854775808", usd, 0, ErrTooLarge},
		{"ErrUint64", "18446744073709551616", usd, 0, ErrTooLarge},
		{"ErrHuge", strings.Repeat("9", 10000), usd, 0, ErrTooLarge},
		{"ErrHugeFraction", strings.Repeat("9", 10000) + ".99", usd, 0, ErrTooLarge},

		{"ErrExponentNegative", "1", Currency{Code: "BAD", Exponent: -1}, 0, ErrInvalid},
		{"ErrExponentTooBig", "1", Currency{Code: "BAD", Exponent: 7}, 0, ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			got, err := Parse(tt.text, tt.cur)
			is.True(errors.Is(err, tt.err)) // errors.Is(nil, nil) is true
			is.Equal(got, tt.want)
		})
	}
}

// The classic float trap: 0.1 + 0.2 is exactly 0.3 in minor units.
func TestParseNoFloatDrift(t *testing.T) {
	is := is.New(t)
	usd := mustLookup(t, "USD")
	a, err := Parse("0.1", usd)
	is.NoErr(err)
	b, err := Parse("0.2", usd)
	is.NoErr(err)
	c, err := Parse("0.3", usd)
	is.NoErr(err)
	is.Equal(a+b, c)
	is.Equal(Format(a+b, usd), "0.30")
}

func TestParseErrorText(t *testing.T) {
	tests := []struct {
		name string
		text string
		code string
		want string
	}{
		{"ErrFormat", "abc", "USD", "must be a positive decimal number"},
		{"ErrTooManyDecimals", "1.001", "USD", "has more decimal places than USD allows (2)"},
		{"ErrTooManyDecimalsJPY", "1.5", "JPY", "has more decimal places than JPY allows (0)"},
		{"ErrNotPositive", "0", "USD", "must be greater than zero"},
		{"ErrTooLarge", "1000000000001", "INR", "must be at most 1000000000000 INR"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			_, err := Parse(tt.text, mustLookup(t, tt.code))
			is.True(err != nil)
			is.Equal(err.Error(), tt.want)
		})
	}
}

func TestCheckMinor(t *testing.T) {
	usd, _ := Lookup("USD")
	kwd, _ := Lookup("KWD")
	jpy, _ := Lookup("JPY")
	for _, c := range []struct {
		minor int64
		cur   Currency
		err   error
	}{
		{1, usd, nil},
		{25000, usd, nil},
		{100_000_000_000_000, usd, nil}, // 10^12 USD
		{100_000_000_000_001, usd, ErrTooLarge},
		{1_000_000_000_000, jpy, nil},
		{1_000_000_000_001, jpy, ErrTooLarge},
		{1_000_000_000_000_000, kwd, nil}, // 10^12 KWD is 10^15 fils, below 2^53
		{1_000_000_000_000_001, kwd, ErrTooLarge},
		{MaxSafeInteger + 1, Currency{Code: "XX6", Exponent: 6}, ErrTooLarge}, // 10^18 would fit int64, not a double
		{0, usd, ErrNotPositive},
		{-5, usd, ErrNotPositive},
		{1, Currency{Code: "BAD", Exponent: 9}, ErrInvalid},
	} {
		if err := CheckMinor(c.minor, c.cur); !errors.Is(err, c.err) {
			t.Errorf("CheckMinor(%d, %s) = %v, want %v", c.minor, c.cur.Code, err, c.err)
		}
	}
}
