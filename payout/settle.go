package payout

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/store"
)

// submit hands the payout to the rail, outside any transaction (a rail call
// must not hold the single write connection). Patient, it retries
// transient failures SubmitBackoff apart, doubling; transient reports that
// they did not stop.
func (pl *Pipeline) submit(ctx context.Context, rail Settlement, p store.Payment, patient bool) (ref string, transient bool, err error) {
	attempts := 1
	if patient {
		attempts = max(pl.SubmitAttempts, 1)
	}
	for i := 0; i < attempts; i++ {
		if i > 0 {
			select {
			case <-ctx.Done():
				return "", false, ctx.Err()
			case <-time.After(pl.SubmitBackoff << (i - 1)):
			}
		}
		if ref, err = rail.Submit(ctx, p); !errors.Is(err, ErrTransient) {
			break
		}
	}
	if errors.Is(err, ErrTransient) {
		return "", true, nil
	}
	return ref, false, err
}

// apply records a rail outcome: CONFIRMED with the settlement's ledger
// posting, FAILED, or UNKNOWN (the advance job then keeps asking).
func (pl *Pipeline) apply(tx *store.Tx, p *store.Payment, out Outcome) error {
	switch out.State {
	case Failed:
		return tx.Transition(p, store.StatusFailed, func(n *store.Payment) { n.FailedReason = out.Reason })
	case Unknown:
		if p.Status == store.StatusUnknown {
			return nil
		}
		return tx.Transition(p, store.StatusUnknown, nil)
	}
	inr, rate, err := settlementValue(p, out)
	if err != nil {
		return err
	}
	return tx.Settle(p, inr, rate)
}

// settlementValue is the payout's INR value at the rate fixed at settlement,
// rounded half-up to the paisa.
func settlementValue(p *store.Payment, out Outcome) (int64, string, error) {
	cur, ok := money.Lookup(p.Currency)
	if !ok || out.Rate.IsZero() {
		return 0, "", fmt.Errorf("settlement of %s: no rate for %s", p.ID, p.Currency)
	}
	inr, _ := money.Lookup("INR")
	v, err := money.ConvertChecked(p.Amount, cur, out.Rate, inr)
	if err != nil {
		return 0, "", fmt.Errorf("settlement of %s: %w", p.ID, err)
	}
	return v, out.Rate.String(), nil
}
