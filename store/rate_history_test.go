package store

import (
	"context"
	"testing"
	"time"

	"github.com/matryer/is"
)

// TestRateHistory: the rates a live process kept are read back for one
// mode, from a time on, oldest first.
func TestRateHistory(t *testing.T) {
	is := is.New(t)
	db, _ := openTestDB(t)
	ctx := context.Background()
	t0 := time.Date(2027, 3, 31, 0, 0, 0, 0, time.UTC)
	is.NoErr(db.WithTx(ctx, func(tx *Tx) error {
		if err := tx.Tax().RecordRates(true, []Rate{{"USD", "83.40", t0.Add(48 * time.Hour)}, {"USD", "83.25", t0}, {"EUR", "90.10", t0.Add(time.Hour)}}); err != nil {
			return err
		}
		return tx.Tax().RecordRates(false, []Rate{{"USD", "80.00", t0}})
	}))
	got, err := db.Tax().RateHistory(ctx, true, t0.Add(-time.Hour))
	is.NoErr(err)
	is.Equal(got, []Rate{{"USD", "83.25", t0}, {"EUR", "90.10", t0.Add(time.Hour)}, {"USD", "83.40", t0.Add(48 * time.Hour)}})
	got, err = db.Tax().RateHistory(ctx, true, t0.Add(2*time.Hour))
	is.NoErr(err)
	is.Equal(len(got), 1)
}
