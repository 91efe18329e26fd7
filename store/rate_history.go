package store

import (
	"context"
	"time"
)

// RateHistory lists one mode's recorded INR rates (inr_rates) as of since
// or later, oldest first: what a restarted live process remembers to value
// payouts settled while it was down.
func (g Tax) RateHistory(ctx context.Context, livemode bool, since time.Time) ([]Rate, error) {
	db := g.db
	rows, err := db.query(ctx, "SELECT currency, rate, as_of FROM inr_rates WHERE livemode = ? AND as_of >= ? ORDER BY as_of",
		livemode, ms(since))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Rate
	for rows.Next() {
		var r Rate
		var at int64
		if err := rows.Scan(&r.Currency, &r.Rate, &at); err != nil {
			return nil, err
		}
		r.AsOf = fromMS(at)
		out = append(out, r)
	}
	return out, rows.Err()
}
