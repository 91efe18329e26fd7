package stellar

import (
	"math"
	"testing"

	"github.com/matryer/is"
	"github.com/stellar/go-stellar-sdk/amount"

	"github.com/payoutd/payoutd/money"
)

func cur(code string) money.Currency {
	c, ok := money.Lookup(code)
	if !ok {
		panic(code)
	}
	return c
}

func TestToStroops(t *testing.T) {
	for _, tc := range []struct {
		name    string
		minor   int64
		cur     money.Currency
		stroops int64
		text    string // as the SDK writes it into the operation
		err     bool
	}{
		{"OneCent", 1, cur("USD"), 100_000, "0.0100000", false},
		{"Dollars", 12_345, cur("USD"), 1_234_500_000, "123.4500000", false},
		{"NoDecimals", 7, cur("JPY"), 70_000_000, "7.0000000", false},
		{"ThreeDecimals", 1, cur("KWD"), 10_000, "0.0010000", false},
		{"FourDecimals", 1, money.Currency{Code: "CLF", Exponent: 4}, 1_000, "0.0001000", false},
		{"LargestUSD", math.MaxInt64 / 100_000, cur("USD"), math.MaxInt64 / 100_000 * 100_000, "", false},
		{"ErrOverflow", math.MaxInt64/100_000 + 1, cur("USD"), 0, "", true},
		{"ErrZero", 0, cur("USD"), 0, "", true},
		{"ErrNegative", -1, cur("USD"), 0, "", true},
		{"ErrTooManyDecimals", 1, money.Currency{Code: "XXX", Exponent: 8}, 0, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			s, err := ToStroops(tc.minor, tc.cur)
			is.Equal(err != nil, tc.err)
			is.Equal(s, tc.stroops)
			if tc.text != "" {
				is.Equal(amount.StringFromInt64(s), tc.text)
			}
			if err == nil {
				back, dust, err := FromStroops(s, tc.cur)
				is.NoErr(err)
				is.Equal(back, tc.minor) // exact both ways
				is.Equal(dust, int64(0))
			}
		})
	}
}

func TestFromStroops(t *testing.T) {
	for _, tc := range []struct {
		name        string
		stroops     int64
		cur         money.Currency
		minor, dust int64
		err         bool
	}{
		{"Exact", 1_234_500_000, cur("USD"), 12_345, 0, false},
		{"DustKeptApart", 1_234_500_001, cur("USD"), 12_345, 1, false},
		{"BelowOneCent", 99_999, cur("USD"), 0, 99_999, false},
		{"Yen", 15_000_000, cur("JPY"), 1, 5_000_000, false},
		{"Zero", 0, cur("EUR"), 0, 0, false},
		{"ErrNegative", -1, cur("EUR"), 0, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			m, d, err := FromStroops(tc.stroops, tc.cur)
			is.Equal(err != nil, tc.err)
			is.Equal(m, tc.minor)
			is.Equal(d, tc.dust)
		})
	}
}
