package india_test

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/payoutd/payoutd/india"
)

// validGSTIN builds a GSTIN with a correct check character from its first 14.
func validGSTIN(t testing.TB, first14 string) string {
	t.Helper()
	c, err := india.GSTINCheckChar(first14)
	if err != nil {
		t.Fatalf("GSTINCheckChar(%q): %v", first14, err)
	}
	return first14 + string(c)
}

func TestValidateGSTIN(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		for _, s := range []string{
			"27AAPFU0939F1ZV",               // python-stdnum's valid example
			validGSTIN(t, "01AAAAA0001A1Z"), // lowest state code
			validGSTIN(t, "37ABCPK9999Z9Z"), // highest state code, holder K
			validGSTIN(t, "29AABCT1332LAZ"), // entity number A
			validGSTIN(t, "07AAAPL1234CZZ"), // entity number Z
			validGSTIN(t, "10ABCGH0001Q1Z"), // holder G
			validGSTIN(t, "24AAAJB0042M2Z"), // holder J
		} {
			is.New(t).NoErr(india.ValidateGSTIN(s))
		}
	})
	for name, s := range map[string]string{
		"ErrChecksum":        "27AAPFU0939F1ZO", // python-stdnum's checksum counter-example
		"ErrLength":          "27AAPFU0939F1Z",
		"ErrLong":            "27AAPFU0939F1ZVX",
		"ErrDigitsOnly":      "369296450896540",
		"ErrSerial0000":      "27AAPFU0000F1ZV",
		"ErrLowerCase":       "27aapfu0939f1zv",
		"ErrSpaces":          "27AAPFU0939F1ZV ",
		"ErrState00":         validGSTIN(t, "00AAPFU0939F1Z"),
		"ErrState38":         validGSTIN(t, "38AAPFU0939F1Z"),
		"ErrState99":         validGSTIN(t, "99AAPFU0939F1Z"),
		"ErrHolderType":      validGSTIN(t, "27AAPXU0939F1Z"),
		"ErrEntityZero":      validGSTIN(t, "27AAPFU0939F0Z"),
		"Err14thNotZ":        validGSTIN(t, "27AAPFU0939F1Y"),
		"ErrPANLastNotAlpha": validGSTIN(t, "27AAPFU093901Z"),
		"ErrEmpty":           "",
	} {
		t.Run(name, func(t *testing.T) {
			is := is.New(t)
			err := india.ValidateGSTIN(s)
			is.True(errors.Is(err, india.ErrInvalidGSTIN))
		})
	}
}

func TestGSTINCheckChar(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		is := is.New(t)
		c, err := india.GSTINCheckChar("27AAPFU0939F1Z")
		is.NoErr(err)
		is.Equal(c, byte('V')) // python-stdnum: "it gives V for 27AAPFU0939F1Z"
	})
	t.Run("ErrLength", func(t *testing.T) {
		_, err := india.GSTINCheckChar("27AAPFU0939F1")
		is.New(t).True(errors.Is(err, india.ErrInvalidGSTIN))
	})
	t.Run("ErrCharacter", func(t *testing.T) {
		_, err := india.GSTINCheckChar("27aapfu0939f1z")
		is.New(t).True(errors.Is(err, india.ErrInvalidGSTIN))
	})
	t.Run("OnlyOneCheckCharFits", func(t *testing.T) {
		is := is.New(t)
		valid := 0
		for _, c := range "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ" {
			if india.ValidateGSTIN("27AAPFU0939F1Z"+string(c)) == nil {
				valid++
			}
		}
		is.Equal(valid, 1)
	})
}

// stdnumGSTIN is python-stdnum's rule written independently of the package:
// the regex, serial ≠ 0000, and its luhn.checksum over all 15 characters
// (odd positions from the right as is, even ones doubled and digit-summed in
// base 36) equal to 0.
var stdnumGSTINRe = regexp.MustCompile(`^([0][1-9]|[1-2][0-9]|[3][0-7])[A-Z]{3}[ABCFGHLJPTK][A-Z]\d{4}[A-Z][1-9A-Z][Z][\dA-Z]$`)

func stdnumGSTIN(s string) bool {
	if !stdnumGSTINRe.MatchString(s) || s[7:11] == "0000" {
		return false
	}
	const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	sum := 0
	for i := 0; i < len(s); i++ {
		v := strings.IndexByte(alphabet, s[len(s)-1-i])
		if i%2 == 1 {
			v *= 2
			v = v/36 + v%36
		}
		sum += v
	}
	return sum%36 == 0
}

// TestValidateGSTINMatchesStdnum changes every character of a valid GSTIN to
// every other candidate and compares the hand-written checks with the
// reference above.
func TestValidateGSTINMatchesStdnum(t *testing.T) {
	is := is.New(t)
	const candidates = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZaz -"
	for _, base := range []string{"27AAPFU0939F1ZV", validGSTIN(t, "37ABCPK9999Z9Z")} {
		for i := 0; i < len(base); i++ {
			for _, c := range []byte(candidates) {
				s := base[:i] + string(c) + base[i+1:]
				is.Equal(india.ValidateGSTIN(s) == nil, stdnumGSTIN(s)) // s
			}
		}
	}
}

func FuzzValidateGSTIN(f *testing.F) {
	for _, s := range []string{"27AAPFU0939F1ZV", "27AAPFU0939F1ZO", "27AAPFU0000F1ZV", "38AAPFU0939F1ZV", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := india.ValidateGSTIN(s) == nil, stdnumGSTIN(s); got != want {
			t.Fatalf("ValidateGSTIN(%q) valid=%v, python-stdnum rule says %v", s, got, want)
		}
	})
}
