package india

import (
	"errors"
	"fmt"
	"strings"
)

// ErrInvalidPAN is returned (wrapped, with the reason) by ValidatePAN.
var ErrInvalidPAN = errors.New("invalid PAN")

// panHolderTypes are the letters allowed as the 4th character of a PAN:
// P Individual, C Company, H HUF, F Firm, A AOP, B BOI, G Government,
// J Artificial juridical person, L Local authority, T Trust, K Krish.
// Source: repo arthurdejong/python-stdnum,
// stdnum/in_/pan.py (commit 02fc2b561e0d471bfe9cc4675a6ff5898a68ff4e).
const panHolderTypes = "PCHFABGJLTK"

// ValidatePAN checks a Permanent Account Number: ^[A-Z]{5}[0-9]{4}[A-Z]$,
// serial (characters 6–9) not 0000, and a known holder type in the 4th
// character. The last letter is a check letter from an undocumented
// algorithm, so it cannot be verified. Input must already
// be upper case and without spaces; callers normalise if they want to.
func ValidatePAN(s string) error {
	if reason := panProblem(s); reason != "" {
		return fmt.Errorf("%w: %s", ErrInvalidPAN, reason)
	}
	return nil
}

// panProblem says what is wrong with a PAN, or "" when nothing is. GSTIN
// validation reuses it: characters 3–12 of a GSTIN are the holder's PAN and
// python-stdnum's GSTIN pattern is exactly this PAN pattern.
func panProblem(s string) string {
	if len(s) != 10 {
		return "must be 10 characters"
	}
	for i := 0; i < 10; i++ {
		c := s[i]
		letter := c >= 'A' && c <= 'Z'
		digit := c >= '0' && c <= '9'
		if i >= 5 && i <= 8 {
			if !digit {
				return "characters 6-9 must be digits"
			}
		} else if !letter {
			return "characters 1-5 and 10 must be upper-case letters"
		}
	}
	if s[5:9] == "0000" {
		return "serial number 0000 is not issued"
	}
	if strings.IndexByte(panHolderTypes, s[3]) < 0 {
		return "unknown holder type in the 4th character"
	}
	return ""
}
