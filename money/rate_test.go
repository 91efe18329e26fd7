package money

import (
	"errors"
	"strings"
	"testing"

	"github.com/matryer/is"
)

func mustRate(t testing.TB, s string) Rate {
	t.Helper()
	r, err := ParseRate(s)
	if err != nil {
		t.Fatalf("ParseRate(%q): %v", s, err)
	}
	return r
}

func TestParseRate(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		string string // canonical form; "" when an error is expected
		err    error
	}{
		{"OK", "83.2512", "83.2512", nil},
		{"OKTwoDecimals", "83.25", "83.25", nil},
		{"OKOneDecimal", "83.5", "83.50", nil},
		{"OKWhole", "83", "83.00", nil},
		{"OKTrailingZeros", "83.25120000000", "83.2512", nil},
		{"OKLeadingZeros", "0083.25", "83.25", nil},
		{"OKEightDecimals", "0.00000001", "0.00000001", nil},
		{"OKSmall", "0.0032", "0.0032", nil},
		{"OKOne", "1", "1.00", nil},
		{"OKMax", "1000000000", "1000000000.00", nil},
		{"OKMaxZeros", "1000000000.00000000", "1000000000.00", nil},
		{"OKAllDigits", "123456789.12345678", "123456789.12345678", nil},

		{"ErrEmpty", "", "", ErrFormat},
		{"ErrNegative", "-83.25", "", ErrFormat},
		{"ErrExponent", "8.325e1", "", ErrFormat},
		{"ErrSpace", "83.25 ", "", ErrFormat},
		{"ErrNoWhole", ".5", "", ErrFormat},
		{"ErrNoFraction", "5.", "", ErrFormat},
		{"ErrNineDecimals", "0.000000001", "", ErrTooManyDecimals},
		{"ErrZero", "0", "", ErrNotPositive},
		{"ErrZeroDecimals", "0.00000000", "", ErrNotPositive},
		{"ErrOverMax", "1000000000.00000001", "", ErrTooLarge},
		{"ErrHuge", strings.Repeat("9", 10000), "", ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			r, err := ParseRate(tt.text)
			is.True(errors.Is(err, tt.err))
			if tt.err != nil {
				is.True(r.IsZero())
				return
			}
			is.Equal(r.String(), tt.string)
			back, err := ParseRate(r.String())
			is.NoErr(err)
			is.Equal(back, r)
		})
	}
}

func TestParseRateErrorText(t *testing.T) {
	is := is.New(t)
	_, err := ParseRate("1.123456789")
	is.Equal(err.Error(), "has more than 8 decimal places")
	_, err = ParseRate("1000000001")
	is.Equal(err.Error(), "must be at most 1000000000")
}

func TestRateZero(t *testing.T) {
	is := is.New(t)
	var r Rate
	is.True(r.IsZero())
	is.Equal(r.String(), "0.00")
	is.True(!mustRate(t, "1").IsZero())
}
