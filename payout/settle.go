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

// applyOutcome records a rail outcome: CONFIRMED with the settlement's ledger
// posting, FAILED, or UNKNOWN (the advance job then keeps asking).
func applyOutcome(tx *store.Tx, p *store.Payment, out Outcome) error {
	if out.Record != nil && out.State != Unknown {
		if err := out.Record(tx); err != nil {
			return err
		}
		// The vault's account is free for its next transaction: that
		// payout's job runs now rather than when its snooze ends.
		if next, ok, err := tx.Chain().NextWaiting(*p); err != nil {
			return err
		} else if ok {
			if err := Enqueue(tx, next); err != nil {
				return err
			}
		}
	}
	switch out.State {
	case Failed:
		return tx.Payments().Transition(p, store.StatusFailed, func(n *store.Payment) { n.FailedReason = out.Reason })
	case Unknown:
		if p.Status == store.StatusUnknown {
			return nil
		}
		return tx.Payments().Transition(p, store.StatusUnknown, nil)
	case Resign:
		return tx.Payments().Transition(p, store.StatusProcessing, nil)
	}
	settledAt := out.SettledAt
	if settledAt.IsZero() {
		settledAt = tx.Now()
	}
	if out.Waiting != "" {
		// Settled on the network: the payout is CONFIRMED now, still holding
		// its reservation; its INR value and ledger posting wait for a
		// rate as of its settlement (value).
		return tx.Ledger().SettleAwaitingValue(p, settledAt)
	}
	inr, rate, err := settlementValue(p, out)
	if err != nil {
		return err
	}
	if err := tx.Ledger().Settle(p, inr, rate, settledAt); err != nil {
		return err
	}
	if !out.AsOf.IsZero() {
		return tx.Ledger().RecordRateAsOf(p.ID, rate, out.AsOf)
	}
	return nil
}

// value is CONFIRMED without an INR value: with a rate as of its
// settlement in hand it values and books the settlement and completes the
// payout in one transaction; without, it waits and looks again.
func (pl *Pipeline) value(p store.Payment) (step, error) {
	if pl.LiveRate == nil {
		return step{}, fmt.Errorf("payment %s settled without an INR value and no rate source is configured", p.ID)
	}
	if p.SettledAt == nil {
		return step{}, fmt.Errorf("payment %s is CONFIRMED without its settlement time", p.ID)
	}
	rate, asOf, err := pl.LiveRate(p.Currency, *p.SettledAt)
	if err != nil {
		pl.Log.Info("payout settled; its INR value waits for a fresh rate", "payment", p.ID, "why", err.Error())
		return step{snooze: true, after: pl.rateRecheck()}, nil
	}
	inr, rateText, err := settlementValue(&p, Outcome{Rate: rate})
	if err != nil {
		return step{}, err
	}
	return step{actor: "system:post_settlement", apply: func(tx *store.Tx, p *store.Payment) error {
		if err := tx.Ledger().ValueSettlement(p, inr, rateText, asOf); err != nil {
			return err
		}
		return pl.completeTx(tx, p)
	}}, nil
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

// sign is PROCESSING on a Signer rail: the signed envelope is stored in the
// transaction that moves the payout to SUBMITTED, before anything is sent.
func (pl *Pipeline) sign(ctx context.Context, sg Signer, p store.Payment) (step, error) {
	sub, mark, err := sg.Sign(ctx, p)
	var refused *Refusal
	switch {
	case errors.As(err, &refused):
		return step{actor: "system:settlement", apply: func(tx *store.Tx, p *store.Payment) error {
			return tx.Payments().Transition(p, store.StatusFailed, func(n *store.Payment) { n.FailedReason = "SETTLEMENT_REJECTED: " + refused.Reason })
		}}, nil
	case errors.Is(err, store.ErrVaultBusy), errors.Is(err, ErrTransient):
		return step{snooze: true}, nil
	case errors.Is(err, store.ErrVaultQuarantined):
		// Nothing is signed until a person releases the vault; the
		// quarantine is in the wallet view, /readyz and payoutd check.
		return step{snooze: true, after: pl.quarantinePoll()}, nil
	case err != nil:
		return step{}, err
	}
	return step{actor: "system:settlement", apply: func(tx *store.Tx, p *store.Payment) error {
		if err := tx.Chain().RecordSubmission(sub, mark); err != nil {
			return err
		}
		return tx.Payments().Transition(p, store.StatusSubmitted, func(n *store.Payment) { n.SettlementRef = sub.Hash })
	}}, nil
}
