package money

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/matryer/is"
)

func TestConvert(t *testing.T) {
	usd := mustLookup(t, "USD")
	inr := mustLookup(t, "INR")
	jpy := mustLookup(t, "JPY")
	kwd := mustLookup(t, "KWD")
	tests := []struct {
		name  string
		minor int64
		from  Currency
		rate  string
		to    Currency
		want  int64 // also what Convert returns, saturated on ErrOverflow
		err   error
	}{
		{"OK", 1250, usd, "83.2512", inr, 104064, nil},                 // 12.50 × 83.2512 = 1040.64
		{"OKHalfUp", 1, usd, "50.5", inr, 51, nil},                     // 50.5 paise
		{"OKJustBelowHalf", 1, usd, "50.4999", inr, 50, nil},           // 50.4999 paise
		{"OKFarBelowHalf", 1, usd, "50.49999999", inr, 50, nil},        // 50.49999999 paise
		{"OKJustAboveHalf", 1, usd, "50.50000001", inr, 51, nil},       // 50.50000001 paise
		{"OKNegativeHalfAwayFromZero", -1, usd, "50.5", inr, -51, nil}, // -50.5 paise
		{"OKNegativeBelowHalf", -1, usd, "50.4999", inr, -50, nil},     // -50.4999 paise
		{"OKSmallestRate", 1, usd, "0.00000001", inr, 0, nil},          // 0.00000001 paise
		{"OKJPY", 1000, jpy, "0.5605", inr, 56050, nil},                // ¥1000 = ₹560.50
		{"OKJPYHalfUp", 1, jpy, "0.565", inr, 57, nil},                 // 56.5 paise
		{"OKJPYBelowHalf", 1, jpy, "0.5649999", inr, 56, nil},          // 56.49999 paise
		{"OKToJPY", 100, inr, "1.785", jpy, 2, nil},                    // ₹1 = ¥1.785
		{"OKToJPYBelowHalf", 100, inr, "1.4999", jpy, 1, nil},          // ¥1.4999
		{"OKKWD", 1005, kwd, "270.5", inr, 27185, nil},                 // 27185.25 paise
		{"OKSameCurrency", 12345, inr, "1", inr, 12345, nil},           // identity
		{"OKMaxAmount", 100_000_000_000_000, usd, "83.2512", inr, 8_325_120_000_000_000, nil},
		{"OKMinInt64", math.MinInt64, inr, "1", inr, math.MinInt64, nil}, // no overflow at the edge
		{"OKMaxInt64", math.MaxInt64, inr, "1", inr, math.MaxInt64, nil},
		{"ErrOverflow", 100_000_000_000_000, usd, "1000000000", inr, math.MaxInt64, ErrOverflow},
		{"ErrOverflowNegative", -100_000_000_000_000, usd, "1000000000", inr, math.MinInt64, ErrOverflow},
		{"ErrOverflowJPY", 1_000_000_000_000, jpy, "1000000000", inr, math.MaxInt64, ErrOverflow},
		{"ErrOverflowByOne", math.MaxInt64, inr, "1.00000001", inr, math.MaxInt64, ErrOverflow},
		{"ErrExponent", 1, Currency{Exponent: -1}, "1", inr, 0, ErrInvalid},
		{"ErrExponentTo", 1, inr, "1", Currency{Exponent: 19}, 0, ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			r := mustRate(t, tt.rate)
			got, err := ConvertChecked(tt.minor, tt.from, r, tt.to)
			is.Equal(err, tt.err)
			if err == nil {
				is.Equal(got, tt.want)
			}
			is.Equal(Convert(tt.minor, tt.from, r, tt.to), tt.want)
		})
	}
	t.Run("ErrZeroRate", func(t *testing.T) {
		is := is.New(t)
		_, err := ConvertChecked(100, usd, Rate{}, inr)
		is.Equal(err, ErrInvalid)
		is.Equal(Convert(100, usd, Rate{}, inr), int64(0))
	})
}

// convertRat is the definition ConvertChecked must match, written the slow
// obvious way with rationals.
func convertRat(minor int64, from Currency, r Rate, to Currency) *big.Int {
	x := new(big.Rat).SetFrac(
		new(big.Int).Mul(big.NewInt(minor), new(big.Int).Mul(big.NewInt(r.units), big.NewInt(pow10[to.Exponent]))),
		new(big.Int).Mul(big.NewInt(pow10[RateDecimals]), big.NewInt(pow10[from.Exponent])),
	)
	neg := x.Sign() < 0
	x.Abs(x)
	x.Add(x, big.NewRat(1, 2))
	q := new(big.Int).Quo(x.Num(), x.Denom()) // floor(|x| + 1/2)
	if neg {
		q.Neg(q)
	}
	return q
}

func TestConvertMatchesRationals(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	codes := []string{"USD", "INR", "JPY", "KWD"}
	for range 20000 {
		from := mustLookup(t, codes[rng.IntN(len(codes))])
		to := mustLookup(t, codes[rng.IntN(len(codes))])
		r := Rate{units: 1 + rng.Int64N(MaxRate*pow10[RateDecimals])}
		minor := rng.Int64() >> rng.IntN(64)
		if rng.IntN(2) == 0 {
			minor = -minor
		}
		want := convertRat(minor, from, r, to)
		got, err := ConvertChecked(minor, from, r, to)
		if !want.IsInt64() {
			if err != ErrOverflow {
				t.Fatalf("ConvertChecked(%d, %s, %s, %s) = %d, %v; want ErrOverflow", minor, from.Code, r, to.Code, got, err)
			}
			continue
		}
		if err != nil || got != want.Int64() {
			t.Fatalf("ConvertChecked(%d, %s, %s, %s) = %d, %v; want %s", minor, from.Code, r, to.Code, got, err, want)
		}
	}
}
