package india_test

import (
	"errors"
	"testing"

	"github.com/matryer/is"
	"github.com/payoutd/payoutd/india"
)

func TestValidatePAN(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		// ACUPA7085R and AAPPV8261K are python-stdnum's examples (stdnum/in_/pan.py).
		for _, s := range []string{"ACUPA7085R", "AAPPV8261K", "AAPFU0939F", "ZZZCZ9999Z", "ABCPE0001F"} {
			is.New(t).NoErr(india.ValidatePAN(s))
		}
	})
	t.Run("OKEveryHolderType", func(t *testing.T) {
		for _, h := range "PCHFABGJLTK" { // every holder type
			is.New(t).NoErr(india.ValidatePAN("ABC" + string(h) + "D1234E"))
		}
	})
	for name, s := range map[string]string{
		"ErrLength":       "234123412347",
		"ErrShort":        "ACUPA7085",
		"ErrCheckDigit":   "ABMPA32111", // stdnum: check digit should be a letter
		"ErrHolderType":   "ABMXA3211G", // stdnum: invalid type of holder
		"ErrSerial0000":   "ACUPA0000R",
		"ErrLowerCase":    "acupa7085r",
		"ErrDigitInName":  "AC1PA7085R",
		"ErrLetterSerial": "ACUPA70B5R",
		"ErrEmpty":        "",
	} {
		t.Run(name, func(t *testing.T) {
			is.New(t).True(errors.Is(india.ValidatePAN(s), india.ErrInvalidPAN))
		})
	}
}
