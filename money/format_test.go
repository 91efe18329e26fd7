package money

import (
	"math"
	"testing"

	"github.com/matryer/is"
)

func TestFormat(t *testing.T) {
	usd := mustLookup(t, "USD")
	jpy := mustLookup(t, "JPY")
	kwd := mustLookup(t, "KWD")
	tests := []struct {
		name  string
		minor int64
		cur   Currency
		want  string
	}{
		{"OK", 123450, usd, "1234.50"},
		{"OKZero", 0, usd, "0.00"},
		{"OKOneCent", 1, usd, "0.01"},
		{"OKTenCents", 10, usd, "0.10"},
		{"OKWhole", 100, usd, "1.00"},
		{"OKNegative", -5, usd, "-0.05"},
		{"OKNegativeWhole", -12345, usd, "-123.45"},
		{"OKMax", 100_000_000_000_000, usd, "1000000000000.00"},
		{"OKMaxInt64", math.MaxInt64, usd, "92233720368547758.07"},
		{"OKMinInt64", math.MinInt64, usd, "-92233720368547758.08"},
		{"OKJPY", 1234, jpy, "1234"},
		{"OKJPYZero", 0, jpy, "0"},
		{"OKJPYNegative", -7, jpy, "-7"},
		{"OKJPYMinInt64", math.MinInt64, jpy, "-9223372036854775808"},
		{"OKKWD", 1005, kwd, "1.005"},
		{"OKKWDSmall", 5, kwd, "0.005"},
		{"OKKWDNegative", -1, kwd, "-0.001"},
		{"OKExponentNegative", 42, Currency{Exponent: -3}, "42"},
		{"OKExponentHuge", 42, Currency{Exponent: 1 << 40}, "0.000000000000000042"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(Format(tt.minor, tt.cur), tt.want)
		})
	}
}

func TestFormatParseRoundTrip(t *testing.T) {
	for _, code := range []string{"USD", "JPY", "KWD", "INR"} {
		cur := mustLookup(t, code)
		max := MaxMajor * pow10[cur.Exponent]
		for _, v := range []int64{1, 9, 10, 99, 100, 101, 123456789, max - 1, max} {
			t.Run(code+Format(v, cur), func(t *testing.T) {
				is := is.New(t)
				got, err := Parse(Format(v, cur), cur)
				is.NoErr(err)
				is.Equal(got, v)
			})
		}
	}
}
