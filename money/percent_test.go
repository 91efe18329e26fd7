package money

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/matryer/is"
)

func TestParsePercent(t *testing.T) {
	tests := []struct {
		name string
		text string
		want int64
		err  error
	}{
		{"OK", "12.5", 1250, nil},
		{"OKTwoDecimals", "12.50", 1250, nil},
		{"OKTrailingZeros", "12.500", 1250, nil},
		{"OKHundred", "100", 10000, nil},
		{"OKHundredZeros", "100.00", 10000, nil},
		{"OKZero", "0", 0, nil},
		{"OKZeroDecimals", "0.00", 0, nil},
		{"OKSmallest", "0.01", 1, nil},
		{"OKAlmostHundred", "99.99", 9999, nil},
		{"OKLeadingZeros", "007", 700, nil},
		{"ErrOverHundred", "100.01", 0, ErrTooLarge},
		{"ErrHundredOne", "101", 0, ErrTooLarge},
		{"ErrHuge", strings.Repeat("9", 10000), 0, ErrTooLarge},
		{"ErrNegative", "-1", 0, ErrFormat},
		{"ErrThreeDecimals", "1.234", 0, ErrTooManyDecimals},
		{"ErrExponent", "1e2", 0, ErrFormat},
		{"ErrEmpty", "", 0, ErrFormat},
		{"ErrPercentSign", "5%", 0, ErrFormat},
		{"ErrSpace", " 5", 0, ErrFormat},
		{"ErrNoWhole", ".5", 0, ErrFormat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			got, err := ParsePercent(tt.text)
			is.True(errors.Is(err, tt.err))
			is.Equal(got, tt.want)
		})
	}
}

func TestPercentOf(t *testing.T) {
	tests := []struct {
		name  string
		minor int64
		bp    int64
		want  int64
	}{
		{"OK", 10000, 1250, 1250},
		{"OKRoundDown", 1001, 1250, 125}, // 125.125
		{"OKHalfUp", 1004, 1250, 126},    // 125.5
		{"OKSmallHalfUp", 4, 1250, 1},    // 0.5
		{"OKSmallRoundDown", 3, 1250, 0}, // 0.375
		{"OKHalfOfOne", 1, 5000, 1},      // 0.5
		{"OKNegativeHalf", -4, 1250, -1}, // -0.5 away from zero
		{"OKNegativeRate", -1, -5000, 1}, // 0.5
		{"OKZeroRate", 123456, 0, 0},
		{"OKZeroAmount", 0, 1250, 0},
		{"OKFull", 123456, 10000, 123456},
		{"OKMaxInt64Full", math.MaxInt64, 10000, math.MaxInt64},
		{"OKMinInt64Full", math.MinInt64, 10000, math.MinInt64},
		{"OKMaxInt64Reserve", math.MaxInt64, 1250, 1152921504606846976}, // 1152921504606846975.875
		{"SaturateHigh", math.MaxInt64, 20000, math.MaxInt64},
		{"SaturateLow", math.MinInt64, 20000, math.MinInt64},
		{"SaturateNegNeg", math.MinInt64, -10000, math.MaxInt64},
		{"SaturateHuge", math.MaxInt64, math.MaxInt64, math.MaxInt64},
		{"SaturateHugeNeg", math.MinInt64, math.MaxInt64, math.MinInt64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(PercentOf(tt.minor, tt.bp), tt.want)
		})
	}
}

func TestPercentOfMatchesRationals(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		minor := rng.Int64() >> rng.IntN(64)
		if rng.IntN(2) == 0 {
			minor = -minor
		}
		bp := rng.Int64N(10001)
		x := big.NewRat(minor, 1)
		x.Mul(x, big.NewRat(bp, 10000))
		neg := x.Sign() < 0
		x.Abs(x).Add(x, big.NewRat(1, 2))
		want := new(big.Int).Quo(x.Num(), x.Denom())
		if neg {
			want.Neg(want)
		}
		if got := PercentOf(minor, bp); got != want.Int64() {
			t.Fatalf("PercentOf(%d, %d) = %d, want %s", minor, bp, got, want)
		}
	}
}
