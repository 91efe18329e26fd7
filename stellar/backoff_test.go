package stellar_test

import (
	"errors"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/riverqueue/river/rivertype"

	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/stellar/stellartest"
	"github.com/payoutd/payoutd/store"
)

// TestLiveUnknownBackoff: a payout whose transaction stays without an
// answer asks the network again at once at first (the answer usually comes
// with the next ledger), then less and less often, up to every few minutes
// (not every second forever).
func TestLiveUnknownBackoff(t *testing.T) {
	is := is.New(t)
	e := newLiveEnvJobs(t, false)
	e.fundVault(100)
	e.Net.Inject(stellartest.Drop) // accepted, never applied: no answer until its time bound
	p, err := e.pay(e.destination(true, true), 10_00, "")
	is.NoErr(err)
	p = e.advance(p.ID)
	is.Equal(p.Status, store.StatusUnknown)
	wait := func() time.Duration {
		t.Helper()
		var snooze *rivertype.JobSnoozeError
		if err := e.Pipeline.Advance(e.ctx, p.ID); !errors.As(err, &snooze) {
			t.Fatalf("advance: %v, want a snooze", err)
		}
		return snooze.Duration
	}
	unknownSince := p.UpdatedAt
	e.DB.SetClock(func() time.Time { return unknownSince.Add(time.Millisecond) })
	is.Equal(wait(), e.Pipeline.LivePoll) // just sent: ask again at once

	e.DB.SetClock(func() time.Time { return unknownSince.Add(time.Minute) })
	d := wait()
	is.True(d >= 7*time.Second && d <= 8*time.Second) // an eighth of a minute

	e.DB.SetClock(func() time.Time { return unknownSince.Add(2 * time.Hour) })
	is.Equal(wait(), payout.DefaultWaitMax) // a payout UNKNOWN for hours asks every few minutes
	is.Equal(e.load(p.ID).Status, store.StatusUnknown)
}
