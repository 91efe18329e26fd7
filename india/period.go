package india

import (
	"errors"
	"fmt"
	"time"
)

// ErrInvalidPeriod is returned (wrapped) by ParsePeriod for text that is not
// a "YYYY-MM" month.
var ErrInvalidPeriod = errors.New("invalid period")

// ParsePeriod parses a GST return period "YYYY-MM" (GSTR-3B is monthly) and
// returns the calendar month in IST as the half-open interval [start, end).
// Both instants are returned in UTC, like every timestamp the API returns;
// use .In(IST) to show them as Indian dates.
func ParsePeriod(s string) (start, end time.Time, err error) {
	if len(s) != 7 || s[4] != '-' {
		return time.Time{}, time.Time{}, fmt.Errorf("%w: %q is not YYYY-MM", ErrInvalidPeriod, s)
	}
	year, ok1 := parseDigits(s[:4])
	month, ok2 := parseDigits(s[5:])
	if !ok1 || !ok2 || month < 1 || month > 12 {
		return time.Time{}, time.Time{}, fmt.Errorf("%w: %q is not YYYY-MM", ErrInvalidPeriod, s)
	}
	first := time.Date(year, time.Month(month), 1, 0, 0, 0, 0, IST)
	return first.UTC(), first.AddDate(0, 1, 0).UTC(), nil
}

// PeriodOf returns the GST month "YYYY-MM" that contains t, in IST.
func PeriodOf(t time.Time) string {
	return t.In(IST).Format("2006-01")
}

// DateOf is the Indian calendar date "YYYY-MM-DD" of t: the date that
// decides a receipt's financial year and GST month, and the one documents
// print.
func DateOf(t time.Time) string {
	return t.In(IST).Format(time.DateOnly)
}

// GSTTimeOfSupplyRule is the service's one wording of how a receipt is
// placed in a GST month.
const GSTTimeOfSupplyRule = "A receipt falls in the GST month of its invoice date when the payment carries invoiceDate, " +
	"else of its settlement date in IST: the time of supply of a service is normally the date of the invoice issued " +
	"for it (s.13 CGST Act, applied to IGST by s.20 IGST Act). Give invoiceDate so the month matches GSTR-1."

// ParseDay reads an IST calendar date "YYYY-MM-DD" as its first instant.
func ParseDay(day string) (time.Time, error) { return time.ParseInLocation(time.DateOnly, day, IST) }

// ParseReturnPeriod parses a GSTR-1 return period: a month "YYYY-MM", or a
// quarter "YYYY-Qn" of a filer under the QRMP scheme, whose quarters are
// the calendar's (Q2 is April to June). It returns the IST span as [start,
// end) in UTC and the portal's "fp" (MMYYYY of the period's last month).
func ParseReturnPeriod(s string) (start, end time.Time, fp string, err error) {
	if len(s) == 7 && s[4] == '-' && s[5] == 'Q' {
		year, ok1 := parseDigits(s[:4])
		q, ok2 := parseDigits(s[6:])
		if !ok1 || !ok2 || q < 1 || q > 4 {
			return time.Time{}, time.Time{}, "", fmt.Errorf("%w: %q is not YYYY-Qn", ErrInvalidPeriod, s)
		}
		first := time.Date(year, time.Month(3*q-2), 1, 0, 0, 0, 0, IST)
		return first.UTC(), first.AddDate(0, 3, 0).UTC(), first.AddDate(0, 2, 0).Format("012006"), nil
	}
	start, end, err = ParsePeriod(s)
	return start, end, start.In(IST).Format("012006"), err
}
