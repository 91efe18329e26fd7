package payout

import (
	"context"
	"time"

	"github.com/payoutd/payoutd/store"
)

// Step is what the status switch answered, for the table tests of
// package payout_test.
type Step struct {
	Actor  string
	Apply  func(tx *store.Tx, p *store.Payment) error
	Snooze bool
	After  time.Duration
}

// Next is the pipeline's status switch (next).
func (pl *Pipeline) Next(ctx context.Context, rail Settlement, p store.Payment, patient bool) (Step, error) {
	st, err := pl.next(ctx, rail, p, patient)
	return Step{Actor: st.actor, Apply: st.apply, Snooze: st.snooze, After: st.after}, err
}
