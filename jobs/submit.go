package jobs

import (
	"context"
	"errors"
	"time"

	"github.com/payoutd/payoutd/store"
)

// submit hands the payout to the rail outside any transaction (a rail call
// must not hold the single write connection), retrying transient failures,
// then records SUBMITTED, or PENDING when the retries ran out.
func (pl *Pipeline) submit(ctx context.Context, p store.Payment) (store.Payment, error) {
	rail := pl.rail(p)
	var ref string
	var err error
	for i := 0; i < max(pl.SubmitAttempts, 1); i++ {
		if i > 0 {
			select {
			case <-ctx.Done():
				return p, ctx.Err()
			case <-time.After(pl.SubmitBackoff << (i - 1)):
			}
		}
		if ref, err = rail.Submit(ctx, p); !errors.Is(err, ErrTransient) {
			break
		}
	}
	transient := errors.Is(err, ErrTransient)
	if err != nil && !transient {
		return p, err // unexpected: let River retry the job
	}
	// No reload inside the transaction: Transition only moves a row still in
	// p.Status, so a payout moved meanwhile fails the step with
	// ERR_INVALID_STATE and the advance loop rereads it.
	txErr := pl.DB.WithTx(ctx, func(tx *store.Tx) error {
		if transient {
			return tx.Transition(&p, store.StatusPending, nil)
		}
		return tx.Transition(&p, store.StatusSubmitted, func(n *store.Payment) { n.SettlementRef = ref })
	}, store.WithActor("system:settlement", ""))
	return p, txErr
}

// poll asks the rail for the outcome of a SUBMITTED payout.
func (pl *Pipeline) poll(ctx context.Context, p store.Payment) error {
	out, err := pl.rail(p).Status(ctx, p)
	if err != nil {
		return err
	}
	return pl.DB.WithTx(ctx, func(tx *store.Tx) error {
		return pl.apply(tx, &p, out)
	}, store.WithActor("system:settlement", ""))
}

// apply records a rail outcome: CONFIRMED (with the ledger posting and the
// settle hooks), FAILED, or UNKNOWN (the advance job then keeps asking).
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
	inr, rate, err := pl.settlementValue(p, out)
	if err != nil {
		return err
	}
	settledAt := tx.Now()
	err = tx.Transition(p, store.StatusConfirmed, func(n *store.Payment) {
		n.AmountINR, n.SettlementRate, n.SettledAt = &inr, rate, &settledAt
	})
	if err != nil {
		return err
	}
	return tx.PostSettlement(*p)
}
