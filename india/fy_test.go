package india_test

import (
	"errors"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/payoutd/payoutd/india"
)

func utc(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestParseFY(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		is := is.New(t)
		for s, want := range map[string]int{"2025-26": 2025, "2023-24": 2023, "1999-00": 1999, "2099-00": 2099} {
			fy, err := india.ParseFY(s)
			is.NoErr(err)
			is.Equal(fy, india.FY{StartYear: want})
			is.Equal(fy.String(), s) // round trip
		}
	})
	for _, s := range []string{"2025-27", "2025-25", "2025", "25-26", "2025/26", "2025-2026", "+025-26", "2025-2a", " 2025-26", "2025-26 ", "２０２５-26", ""} {
		t.Run("Err"+s, func(t *testing.T) {
			_, err := india.ParseFY(s)
			is.New(t).True(errors.Is(err, india.ErrInvalidFY))
		})
	}
}

func TestFYOf(t *testing.T) {
	is := is.New(t)
	for at, want := range map[string]int{
		"2026-03-31T18:29:59Z":      2025, // 23:59:59 IST on 31 March
		"2026-03-31T18:30:00Z":      2026, // 00:00 IST on 1 April starts the year
		"2026-04-01T00:00:00Z":      2026,
		"2026-01-01T00:00:00Z":      2025,
		"2025-12-31T20:00:00Z":      2025, // already 1 January 2026 in IST
		"2026-03-31T23:00:00+05:30": 2025,
	} {
		is.Equal(india.FYOf(utc(at)), india.FY{StartYear: want}) // at
	}
}

func TestFYBounds(t *testing.T) {
	is := is.New(t)
	fy := india.FY{StartYear: 2025}
	is.Equal(fy.Start(), utc("2025-03-31T18:30:00Z"))
	is.Equal(fy.End(), utc("2026-03-31T18:30:00Z"))
	is.Equal(fy.Start().Location(), time.UTC)
	is.Equal(india.FYOf(fy.Start()), fy)                      // start is inside
	is.Equal(india.FYOf(fy.End()), india.FY{StartYear: 2026}) // end is outside
	is.Equal(india.FYOf(fy.End().Add(-time.Nanosecond)), fy)
	is.Equal(fy.String(), "2025-26")
	is.Equal(fy.AssessmentYear(), "2026-27")
	is.Equal(india.FY{StartYear: 1999}.AssessmentYear(), "2000-01")
}
