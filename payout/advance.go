package payout

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/riverqueue/river"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/store"
)

// AdvanceArgs is the River job that moves one payout through the pipeline:
// compliance check → submit → settlement → CONFIRMED → post-settlement →
// COMPLETED. Only the payment id travels; the job reads the payout's
// current state and resumes from it, so a run cut short by a crash goes on
// where it stopped and a repeated run changes nothing.
type AdvanceArgs struct {
	PaymentID string `json:"paymentId"`
}

// Kind is the stable job kind.
func (AdvanceArgs) Kind() string { return store.AdvanceJobKind }

// Enqueue inserts p's advance job in tx, the transaction that made p owe
// the pipeline a step (confirm, retry, review approve): the job exists if
// and only if that state change commits.
//
// Jobs are not unique per payout: River counts a job that has just moved
// the payout to rest as running until its completion is recorded, so a
// retry landing in that moment would be dropped as a duplicate. Two jobs
// for one payout are harmless instead: every step is a guarded UPDATE
// from the state it read, so the second finds the payout moved and reads
// it again.
func Enqueue(tx *store.Tx, p store.Payment) error {
	return tx.Enqueue(AdvanceArgs{PaymentID: p.ID}, nil)
}

// AdvanceWorker runs payment_advance jobs.
type AdvanceWorker struct {
	river.WorkerDefaults[AdvanceArgs]
	P *Pipeline
}

// Work advances the payout until it rests, completing the job in the
// transaction that brings it to rest. A failure on the job's last attempt
// flags the payout for a person (giveUp) before River discards the job.
func (w *AdvanceWorker) Work(ctx context.Context, job *river.Job[AdvanceArgs]) (err error) {
	defer func() {
		if r := recover(); r != nil {
			w.P.Log.Error("payout job panicked", "payment", job.Args.PaymentID, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			err = fmt.Errorf("panic: %v", r)
		}
		if err != nil && job.Attempt >= job.MaxAttempts && !isSnooze(err) {
			w.P.giveUp(ctx, job.Args.PaymentID, job.Attempt, err)
		}
	}()
	return w.P.advance(ctx, job.Args.PaymentID, func(tx *store.Tx) {
		// Should it fail, River completes the job once Work returns.
		_ = store.CompleteJob(tx, job)
	})
}

// maxSteps bounds one run; the longest path has five steps.
const maxSteps = 8

// Advance moves the payout as far as it can go: until it is final, waits
// for a person (MANUAL_REVIEW), or is UNKNOWN at the rail (then the job
// snoozes and asks again). Each step is recorded in its own transaction;
// on an instant rail the steps that need no waiting share one.
func (pl *Pipeline) Advance(ctx context.Context, id string) error { return pl.advance(ctx, id, nil) }

// atRest is called in the transaction that brings a payout to rest (it
// owes no step), so the job moving it is done with that transaction.
type atRest func(tx *store.Tx)

func (pl *Pipeline) advance(ctx context.Context, id string, rest atRest) error {
	p, err := pl.DB.Payments().LoadPayment(ctx, id)
	if err != nil {
		return ignoreNotFound(err)
	}
	rail := pl.rail(p)
	if rail == nil {
		// A live payout in a process started without its rail: its
		// envelope may be in flight and nothing else would resume it, so
		// the job waits for the rail to come back instead of ending with
		// the payout, its reservation and its vault stuck.
		if !store.OwesStep(p.Status) {
			return nil
		}
		pl.Log.Warn("a live payout waits for the live rail (-stellar-rpc)", "payment", id, "status", p.Status)
		return river.JobSnooze(10 * pl.livePoll())
	}
	in, instant := rail.(Instant)
	instant = instant && in.Instant()
	for i := 0; i < maxSteps; i++ {
		if !store.OwesStep(p.Status) {
			return nil
		}
		if instant && pl.runInstant(ctx, rail, &p, rest) {
			continue
		}
		st, err := pl.next(ctx, rail, p, true)
		if err != nil {
			return err
		}
		if st.snooze {
			if st.after > 0 {
				return river.JobSnooze(st.after)
			}
			if p.Livemode {
				return river.JobSnooze(pl.liveWait(p))
			}
			return river.JobSnooze(pl.UnknownPoll)
		}
		q, err := pl.record(ctx, p, st, rest)
		switch {
		case err == nil:
			p = q
		case errors.Is(err, store.ErrVaultBusy):
			// Another transaction of the vault's account started or ended
			// since this one was signed: sign again once it is final.
			return river.JobSnooze(pl.livePoll())
		case apperr.Code(err) == apperr.ErrInvalidState:
			// Another run moved the payout since it was read: the guarded
			// UPDATE refused and nothing was written. Go on from where it is.
			if p, err = pl.DB.Payments().LoadPayment(ctx, id); err != nil {
				return ignoreNotFound(err)
			}
		default:
			return err
		}
	}
	return fmt.Errorf("payment %s did not come to rest in %d steps", id, maxSteps)
}

// runInstant takes every step an instant rail can answer at once in one
// transaction, each still audited under its own actor with its own event.
// It stops before a step that must wait (a transient submit failure is
// retried with backoff, never inside a transaction; UNKNOWN snoozes) and
// reports whether the payout moved; if a step fails, nothing is written
// and the step-by-step path reports the failure.
func (pl *Pipeline) runInstant(ctx context.Context, rail Settlement, p *store.Payment, rest atRest) bool {
	var cur store.Payment
	err := pl.DB.WithTx(ctx, func(tx *store.Tx) error {
		cur = *p
		for i := 0; i < maxSteps && store.OwesStep(cur.Status); i++ {
			st, err := pl.next(ctx, rail, cur, false)
			if err != nil || st.apply == nil || st.snooze {
				return nil
			}
			tx.Actor = st.actor
			if err := st.apply(tx, &cur); err != nil {
				return err
			}
		}
		rest.reached(tx, cur)
		return nil
	}, store.CheckMovesLate())
	if err != nil || cur.Status == p.Status {
		return false
	}
	*p = cur
	return true
}

// record writes st's move of p, and in the same transaction the move after
// it when that one is local (a payout settled with its INR value is
// completed): on a rail that is not instant a payout then costs one commit
// less, as runInstant's shared transaction saves on one that is. If that
// next move fails, st's move is written alone, so what the rail said is
// never held back by what follows it.
func (pl *Pipeline) record(ctx context.Context, p store.Payment, st step, rest atRest) (store.Payment, error) {
	var q store.Payment
	write := func(withNext bool) (nextFailed bool, err error) {
		err = pl.DB.WithTx(ctx, func(tx *store.Tx) error {
			q, nextFailed = p, false
			if err := st.apply(tx, &q); err != nil {
				return err
			}
			after, ok := pl.local(q)
			if withNext && ok {
				tx.Actor = after.actor
				if nextFailed = after.apply(tx, &q) != nil; nextFailed {
					return errNextFailed
				}
			}
			rest.reached(tx, q)
			return nil
		}, store.WithActor(st.actor, ""), store.CheckMovesLate())
		return nextFailed, err
	}
	if nextFailed, err := write(true); !nextFailed {
		return q, err
	}
	_, err := write(false)
	return q, err
}

// reached calls rest when p, as tx leaves it, owes no step.
func (rest atRest) reached(tx *store.Tx, p store.Payment) {
	if rest != nil && !store.OwesStep(p.Status) {
		rest(tx)
	}
}

// errNextFailed rolls back a transaction whose second, local move failed;
// record then writes the first move alone.
var errNextFailed = errors.New("payout: the local move after a step failed")

// step is one move of a payout: the rail's answer, already obtained outside
// any transaction, and how to record it.
type step struct {
	actor  string
	apply  func(tx *store.Tx, p *store.Payment) error
	snooze bool          // the rail still does not know: ask again later
	after  time.Duration // how much later, when not the usual poll
}

// next is the pipeline's one status switch. It asks the rail whatever p's
// status needs and returns how to record the answer; a zero step means p
// is at rest, or (impatient) the step must wait. Patient, a transient
// submit failure is retried with backoff and then parks the payout as
// PENDING.
func (pl *Pipeline) next(ctx context.Context, rail Settlement, p store.Payment, patient bool) (step, error) {
	if st, ok := pl.local(p); ok {
		return st, nil
	}
	switch p.Status {
	case store.StatusProcessing:
		if sg, ok := rail.(Signer); ok {
			return pl.sign(ctx, sg, p)
		}
		ref, transient, err := pl.submit(ctx, rail, p, patient)
		switch {
		case err != nil:
			return step{}, err
		case transient && !patient:
			return step{}, nil
		case transient:
			return step{actor: "system:settlement", apply: func(tx *store.Tx, p *store.Payment) error {
				return tx.Payments().Transition(p, store.StatusPending, nil)
			}}, nil
		}
		return step{actor: "system:settlement", apply: func(tx *store.Tx, p *store.Payment) error {
			return tx.Payments().Transition(p, store.StatusSubmitted, func(n *store.Payment) { n.SettlementRef = ref })
		}}, nil
	case store.StatusSubmitted, store.StatusUnknown:
		out, err := rail.Status(ctx, p)
		if errors.Is(err, ErrTransient) {
			return step{snooze: true}, nil
		}
		if err != nil {
			return step{}, err
		}
		if p.Status == store.StatusUnknown && out.State == Unknown {
			return step{snooze: true}, nil
		}
		if p.Status == store.StatusSubmitted && out.State == Unknown && p.Livemode && pl.DB.Now().Before(p.UpdatedAt.Add(pl.LiveUnknownAfter)) {
			return step{snooze: true}, nil // on its way: not unknown yet
		}
		actor := "system:settlement"
		if p.Status == store.StatusUnknown {
			actor = "system:reconciliation"
		}
		return step{actor: actor, apply: func(tx *store.Tx, p *store.Payment) error { return applyOutcome(tx, p, out) }}, nil
	case store.StatusConfirmed: // without its INR value (local takes it with one)
		return pl.value(p)
	}
	return step{}, nil
}

// local is the step p owes that asks nothing of the rail, the network or a
// rate source, if it owes one: compliance, and the post-settlement step of
// a payout CONFIRMED with its INR value.
func (pl *Pipeline) local(p store.Payment) (step, bool) {
	switch {
	case p.Status == store.StatusComplianceCheck:
		return step{actor: "system:compliance", apply: pl.complyTx}, true
	case p.Status == store.StatusConfirmed && p.AmountINR != nil:
		return step{actor: "system:post_settlement", apply: pl.completeTx}, true
	}
	return step{}, false
}
