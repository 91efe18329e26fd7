package india_test

import (
	"errors"
	"testing"

	"github.com/matryer/is"
	"github.com/payoutd/payoutd/india"
)

func TestParsePeriod(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		is := is.New(t)
		// start, end (half-open, UTC) and the month that begins at end.
		for s, want := range map[string][3]string{
			"2026-04": {"2026-03-31T18:30:00Z", "2026-04-30T18:30:00Z", "2026-05"},
			"2026-12": {"2026-11-30T18:30:00Z", "2026-12-31T18:30:00Z", "2027-01"},
			"2024-02": {"2024-01-31T18:30:00Z", "2024-02-29T18:30:00Z", "2024-03"}, // leap year
		} {
			start, end, err := india.ParsePeriod(s)
			is.NoErr(err)
			is.Equal(start, utc(want[0]))
			is.Equal(end, utc(want[1]))
			is.Equal(india.PeriodOf(start), s)
			is.Equal(india.PeriodOf(end), want[2])
		}
	})
	for _, s := range []string{"2026-13", "2026-00", "2026-4", "202604", "2026-04-01", "2026/04", "26-04", ""} {
		t.Run("Err"+s, func(t *testing.T) {
			_, _, err := india.ParsePeriod(s)
			is.New(t).True(errors.Is(err, india.ErrInvalidPeriod))
		})
	}
}

func TestPeriodOf(t *testing.T) {
	is := is.New(t)
	is.Equal(india.PeriodOf(utc("2026-04-30T18:29:59Z")), "2026-04")
	is.Equal(india.PeriodOf(utc("2026-04-30T18:30:00Z")), "2026-05") // 1 May 00:00 IST
}
