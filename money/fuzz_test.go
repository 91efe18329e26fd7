package money

import (
	"errors"
	"math"
	"math/big"
	"testing"
)

// fuzzCurrency maps a fuzzed byte to every exponent Parse supports, so the
// fuzzer explores 0–6 and not just the three common ones.
func fuzzCurrency(exp uint8) Currency {
	return Currency{Code: "FZZ", Exponent: int(exp % (maxExponent + 1))}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"12.50", "0.1", "007", "10.500", "1000000000000", "1000000000000.01",
		"1e5", "-1", ".5", "5.", "1.2.3", " 1", "", "0", "0.00", "9223372036854775808",
	} {
		for _, exp := range []uint8{0, 2, 3} {
			f.Add(s, exp)
		}
	}
	f.Fuzz(func(t *testing.T, text string, exp uint8) {
		cur := fuzzCurrency(exp)
		v, err := Parse(text, cur)
		if err != nil {
			n := 0
			for _, sentinel := range []error{ErrFormat, ErrTooManyDecimals, ErrNotPositive, ErrTooLarge} {
				if errors.Is(err, sentinel) {
					n++
				}
			}
			if n != 1 || v != 0 {
				t.Fatalf("Parse(%q, exp %d) = %d, %v: want 0 and exactly one sentinel", text, cur.Exponent, v, err)
			}
			return
		}
		if v < 1 || v > MaxMajor*pow10[cur.Exponent] {
			t.Fatalf("Parse(%q, exp %d) = %d: out of range", text, cur.Exponent, v)
		}
		back, err := Parse(Format(v, cur), cur)
		if err != nil || back != v {
			t.Fatalf("Parse(Format(%d)) = %d, %v (text %q, exp %d)", v, back, err, text, cur.Exponent)
		}
	})
}

func FuzzFormatRoundTrip(f *testing.F) {
	f.Add(int64(1), uint8(2))
	f.Add(int64(-1), uint8(0))
	f.Add(int64(math.MaxInt64), uint8(3))
	f.Add(int64(math.MinInt64), uint8(6))
	f.Fuzz(func(t *testing.T, x int64, exp uint8) {
		cur := fuzzCurrency(exp)
		max := uint64(MaxMajor * pow10[cur.Exponent])
		v := int64(1 + abs(x)%max) // every value in [1, max]
		s := Format(v, cur)
		back, err := Parse(s, cur)
		if err != nil || back != v {
			t.Fatalf("Parse(Format(%d) = %q, exp %d) = %d, %v", v, s, cur.Exponent, back, err)
		}
	})
}

func FuzzParseRate(f *testing.F) {
	for _, s := range []string{"83.2512", "1", "0.00000001", "1000000000", "1000000000.00000001", "0", "1e2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		r, err := ParseRate(text)
		if err != nil {
			if !r.IsZero() {
				t.Fatalf("ParseRate(%q) = %v, %v: want zero Rate on error", text, r, err)
			}
			return
		}
		if r.units < 1 || r.units > MaxRate*pow10[RateDecimals] {
			t.Fatalf("ParseRate(%q) = %d units: out of range", text, r.units)
		}
		back, err := ParseRate(r.String())
		if err != nil || back != r || back.String() != r.String() {
			t.Fatalf("ParseRate(%q).String() = %q does not round-trip: %v, %v", text, r.String(), back, err)
		}
	})
}

func FuzzParsePercent(f *testing.F) {
	for _, s := range []string{"12.5", "100", "0", "100.01", "-1", "1.234", "1e2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v, err := ParsePercent(text)
		if err == nil && (v < 0 || v > 10000) {
			t.Fatalf("ParsePercent(%q) = %d: out of range", text, v)
		}
	})
}

func FuzzConvert(f *testing.F) {
	f.Add(int64(1250), int64(8_325_120_000), uint8(2), uint8(2))
	f.Add(int64(-1), int64(5_050_000_000), uint8(2), uint8(2))
	f.Add(int64(math.MinInt64), int64(100_000_000), uint8(0), uint8(3))
	f.Fuzz(func(t *testing.T, minor, units int64, fromExp, toExp uint8) {
		r := Rate{units: 1 + int64(abs(units)%uint64(MaxRate*pow10[RateDecimals]))}
		from, to := fuzzCurrency(fromExp), fuzzCurrency(toExp)
		want := convertRat(minor, from, r, to)
		got, err := ConvertChecked(minor, from, r, to)
		switch {
		case !want.IsInt64():
			if err != ErrOverflow {
				t.Fatalf("ConvertChecked(%d, exp %d, %s, exp %d) = %d, %v; want ErrOverflow", minor, from.Exponent, r, to.Exponent, got, err)
			}
		case err != nil || got != want.Int64():
			t.Fatalf("ConvertChecked(%d, exp %d, %s, exp %d) = %d, %v; want %s", minor, from.Exponent, r, to.Exponent, got, err, want)
		}
	})
}

func FuzzPercentOf(f *testing.F) {
	f.Add(int64(1001), int64(1250))
	f.Add(int64(math.MinInt64), int64(-10000))
	f.Fuzz(func(t *testing.T, minor, bp int64) {
		x := new(big.Rat).Mul(big.NewRat(minor, 1), big.NewRat(bp, 10000))
		neg := x.Sign() < 0
		x.Abs(x).Add(x, big.NewRat(1, 2))
		want := new(big.Int).Quo(x.Num(), x.Denom())
		if neg {
			want.Neg(want)
		}
		switch {
		case want.Cmp(big.NewInt(math.MaxInt64)) > 0:
			want.SetInt64(math.MaxInt64)
		case want.Cmp(big.NewInt(math.MinInt64)) < 0:
			want.SetInt64(math.MinInt64)
		}
		if got := PercentOf(minor, bp); got != want.Int64() {
			t.Fatalf("PercentOf(%d, %d) = %d, want %s", minor, bp, got, want)
		}
	})
}
