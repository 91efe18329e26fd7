package india

import (
	"errors"
	"fmt"
	"time"
)

// IST is India Standard Time, UTC+05:30. Indian periods (financial year, GST
// month) are bucketed in IST. A fixed zone, not tzdata: India
// has had no daylight saving or offset change since 1945, and a fixed zone
// works on hosts without a zoneinfo database.
var IST = time.FixedZone("IST", 5*60*60+30*60)

// ErrInvalidFY is returned (wrapped) by ParseFY for text that is not "YYYY-YY".
var ErrInvalidFY = errors.New("invalid financial year")

// FY is an Indian financial year, 1 April of StartYear to 31 March of
// StartYear+1 (IST). From 1 April 2026 the Income-tax Act, 2025 calls the same
// period the "tax year".
type FY struct {
	StartYear int
}

// ParseFY parses "YYYY-YY", such as "2025-26", where YY must be the last two
// digits of StartYear+1. "2025-27", "2025" and "25-26" are errors.
func ParseFY(s string) (FY, error) {
	if len(s) != 7 || s[4] != '-' {
		return FY{}, fmt.Errorf("%w: %q is not YYYY-YY", ErrInvalidFY, s)
	}
	start, ok1 := parseDigits(s[:4])
	end, ok2 := parseDigits(s[5:])
	if !ok1 || !ok2 {
		return FY{}, fmt.Errorf("%w: %q is not YYYY-YY", ErrInvalidFY, s)
	}
	if end != (start+1)%100 {
		return FY{}, fmt.Errorf("%w: %q: a financial year spans consecutive years", ErrInvalidFY, s)
	}
	return FY{StartYear: start}, nil
}

// FYOf returns the financial year containing t; a year starts at
// 1 April 00:00 IST.
func FYOf(t time.Time) FY {
	local := t.In(IST)
	year := local.Year()
	if local.Month() < time.April {
		year--
	}
	return FY{StartYear: year}
}

// String formats the year as "YYYY-YY", the form ParseFY reads.
func (f FY) String() string {
	return fmt.Sprintf("%04d-%02d", f.StartYear, (f.StartYear+1)%100)
}

// Start is the first instant of the year, 1 April 00:00 IST, as a UTC time.
// The year is the half-open interval [Start, End).
func (f FY) Start() time.Time {
	return time.Date(f.StartYear, time.April, 1, 0, 0, 0, 0, IST).UTC()
}

// End is the first instant after the year (1 April 00:00 IST of the next
// year), as a UTC time.
func (f FY) End() time.Time {
	return FY{StartYear: f.StartYear + 1}.Start()
}

// AssessmentYear is the year in which the income of f is assessed, AY = FY + 1:
// "2026-27" for FY 2025-26.
func (f FY) AssessmentYear() string {
	return FY{StartYear: f.StartYear + 1}.String()
}

// parseDigits reads a non-empty run of ASCII digits; unlike strconv.Atoi it
// refuses signs, so "+2025-26" cannot slip through.
func parseDigits(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}
