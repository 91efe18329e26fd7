package wire

import (
	"testing"
	"time"
)

func TestTimeAndAmount(t *testing.T) {
	ist := time.FixedZone("IST", 5*3600+1800)
	for _, c := range []struct {
		in   time.Time
		want string
	}{
		{time.Date(2026, 3, 31, 23, 59, 0, 0, ist), "2026-03-31T18:29:00.000Z"}, // converted to UTC
		{time.Date(2026, 4, 1, 0, 0, 0, 123456789, time.UTC), "2026-04-01T00:00:00.123Z"},
	} {
		if got := Time(c.in); got != c.want {
			t.Errorf("Time(%v) = %s, want %s", c.in, got, c.want)
		}
	}
	for _, c := range []struct {
		minor    int64
		currency string
		want     string
	}{
		{123456789, "USD", "1234567.89"},
		{9999999999, "INR", "99999999.99"},
		{1234, "KWD", "1.234"},
		{500, "JPY", "500"},
		{-5, "USD", "-0.05"},
		{150, "XXX?", "1.50"},
	} {
		if got := Amount(c.minor, c.currency); string(got) != c.want {
			t.Errorf("Amount(%d, %s) = %s, want %s", c.minor, c.currency, got, c.want)
		}
	}
}
