package jobs

import (
	"context"

	"github.com/payoutd/payoutd/store"
)

// Instant is implemented by a rail that answers Submit and Status from
// memory, without I/O: the sandbox. Asking it inside a transaction holds
// the write connection for no wait.
type Instant interface {
	Instant() bool
}

// Instant: the sandbox rail computes every answer from the payout itself.
func (s *SandboxSettlement) Instant() bool { return true }

// advanceInstant takes a payout on an instant rail through every step it
// can take — compliance, submission, the rail's outcome with its ledger
// posting, reconciliation, FIRA and tax — in one transaction instead of
// four. Each state change still writes its own audit row (under its own
// actor) and event. It stops early, committing the steps taken so far,
// where the step-by-step path must go on: a transient submit failure
// (retried with backoff, never inside a transaction), a rail error, or a
// payout coming to rest (UNKNOWN, MANUAL_REVIEW, final). If a step fails,
// nothing is written and the caller goes step by step, which reports the
// failure from the step that had it. It returns the payout as it now is.
// With handOver (the dispatcher, which has no job of its own) a payout
// still owed a step when the run stops gets its River job in the same
// transaction, so no crash can leave it, UNKNOWN say, without one.
func (pl *Pipeline) advanceInstant(ctx context.Context, p store.Payment, handOver bool) (store.Payment, bool) {
	rail := pl.rail(p)
	if in, ok := rail.(Instant); !ok || !in.Instant() {
		return p, false
	}
	cur := p
	err := pl.DB.WithTx(ctx, func(tx *store.Tx) error {
		tx.HoldPaymentRow(cur)
		if err := pl.instantSteps(ctx, tx, rail, &cur); err != nil {
			return err
		}
		if err := tx.FlushPaymentRow(); err != nil {
			return err
		}
		if handOver && store.OwesStep(cur.Status) {
			return tx.Enqueue(AdvanceArgs{PaymentID: cur.ID}, advanceOpts)
		}
		return nil
	})
	if err != nil {
		return p, false
	}
	return cur, true
}

// instantSteps runs the steps of advanceInstant on cur; it returns nil when
// the payout must go on step by step or has come to rest.
func (pl *Pipeline) instantSteps(ctx context.Context, tx *store.Tx, rail Settlement, cur *store.Payment) error {
	for i := 0; i < maxSteps; i++ {
		var err error
		switch cur.Status {
		case store.StatusComplianceCheck:
			tx.Actor = "system:compliance"
			err = pl.complyTx(tx, cur)
		case store.StatusProcessing:
			ref, serr := rail.Submit(ctx, *cur)
			if serr != nil {
				return nil
			}
			tx.Actor = "system:settlement"
			err = tx.Transition(cur, store.StatusSubmitted, func(n *store.Payment) { n.SettlementRef = ref })
		case store.StatusSubmitted:
			out, serr := rail.Status(ctx, *cur)
			if serr != nil {
				return nil
			}
			tx.Actor = "system:settlement"
			err = pl.apply(tx, cur, out)
		case store.StatusConfirmed:
			tx.Actor = "system:post_settlement"
			err = pl.completeTx(tx, cur)
		default:
			return nil // at rest, or UNKNOWN: the step path snoozes
		}
		if err != nil {
			return err
		}
	}
	return nil
}
