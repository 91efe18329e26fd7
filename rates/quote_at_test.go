package rates

import (
	"errors"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/money"
)

// TestQuoteAt: a payout is valued at the rate as of its settlement: the
// newest quote dated no later than it (minutes of clock disagreement
// allowed), no older than the maximum age before it, whether the quote
// came in a document or was remembered from an earlier run; a newer quote
// in hand does not stand in for it.
func TestQuoteAt(t *testing.T) {
	settled := now.Add(-6 * time.Hour)
	rate := func(s string) money.Rate {
		r, err := money.ParseRate(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, tc := range []struct {
		name       string
		loaded     map[time.Time]string // documents merged
		remembered map[time.Time]string // from the database's history
		want       string
		stale      bool
	}{
		{"NewestBefore", map[time.Time]string{settled.Add(-30 * time.Hour): "82.00", settled.Add(-time.Hour): "83.25", now: "84.00"}, nil, "83.25", false},
		{"RememberedBefore", map[time.Time]string{now: "84.00"}, map[time.Time]string{settled.Add(-2 * time.Hour): "83.10"}, "83.10", false},
		{"MinutesAfterAllowed", map[time.Time]string{settled.Add(3 * time.Minute): "83.40"}, nil, "83.40", false},
		{"ErrOnlyAfter", map[time.Time]string{settled.Add(time.Hour): "84.00"}, nil, "", true},
		{"ErrTooOld", map[time.Time]string{settled.Add(-25 * time.Hour): "82.00", now: "84.00"}, nil, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			s := &Source{MaxAge: DefaultMaxAge, Now: func() time.Time { return now }}
			var newest time.Time
			for at, r := range tc.loaded {
				s.merge(map[string]Quote{"USD": {Rate: rate(r), AsOf: at}}, "test")
				newest = later(newest, at)
			}
			for at, r := range tc.remembered {
				s.Remember("USD", Quote{Rate: rate(r), AsOf: at})
				newest = later(newest, at)
			}
			q, err := s.QuoteAt("USD", settled)
			if tc.stale {
				is.True(errors.Is(err, ErrStale))
				return
			}
			is.NoErr(err)
			is.Equal(q.Rate.String(), tc.want)
			cur, _ := s.Quote("USD")
			is.Equal(cur.AsOf, newest) // the newest stays the current rate
		})
	}
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
