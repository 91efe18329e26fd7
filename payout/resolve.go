package payout

import (
	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/store"
)

// Resolve finishes a payout the machine could not, on an operator's word
// that the rail has proven (out: Settled or Failed, with what the rail
// records). A payout with a transaction in flight (SUBMITTED, UNKNOWN) takes
// the outcome as its own follow-up would; a PROCESSING one, whose
// transaction this database never stored (a restore from a backup taken
// before it was signed), can only be resolved as paid, through SUBMITTED;
// so can a FAILED one that a transaction this database does not know paid
// (a restored backup's twin, a copy served elsewhere), its funds taken
// again first.
// The moves are audited under tx's actor, with proof; a settled payout's
// advance job values and completes it.
func Resolve(tx *store.Tx, id string, out Outcome, proof string) (store.Payment, error) {
	p, err := tx.Payments().LoadPayment(id)
	if err != nil {
		return p, err
	}
	switch {
	case out.State != Settled && out.State != Failed:
		return p, apperr.Errorf(apperr.ErrInvalidState, "payment %s: a resolve must say paid or unpaid", p.ID)
	case p.Status == store.StatusSubmitted, p.Status == store.StatusUnknown:
		if out.Ref != "" {
			// Paid by another transaction than the one stored: the
			// settlement's reference is that one (moved with the payout).
			p.SettlementRef = out.Ref
		}
	case p.Status == store.StatusProcessing && out.State == Settled && out.Ref != "":
		if err := tx.Payments().Transition(&p, store.StatusSubmitted, func(n *store.Payment) { n.SettlementRef = out.Ref }); err != nil {
			return p, err
		}
	case p.Status == store.StatusFailed && !IsCancelled(p) && p.VaultID != "" && out.State == Settled && out.Ref != "":
		// Failed here, paid on the network by a transaction this
		// database does not know (a restored backup's twin, a copy
		// served elsewhere): its funds are taken again and it settles.
		if err := tx.Payments().Transition(&p, store.StatusProcessing, nil); err != nil {
			return p, err
		}
		if err := tx.Payments().Transition(&p, store.StatusSubmitted, func(n *store.Payment) { n.SettlementRef = out.Ref }); err != nil {
			return p, err
		}
	default:
		return p, apperr.Errorf(apperr.ErrInvalidState, "payment %s is %s: only a payout whose transaction may be in flight "+
			"(SUBMITTED, UNKNOWN), or one PROCESSING or FAILED paid by a transaction this database never stored, is resolved", p.ID, p.Status)
	}
	outcome := "paid"
	if out.State == Failed {
		outcome = "unpaid"
	}
	if err := tx.Audit(p.UserID, p.Livemode, "payment.resolved", "payment", p.ID,
		map[string]any{"outcome": outcome, "proof": proof, "transaction": p.SettlementRef}); err != nil {
		return p, err
	}
	if err := applyOutcome(tx, &p, out); err != nil {
		return p, err
	}
	if store.OwesStep(p.Status) {
		return p, Enqueue(tx, p)
	}
	return p, nil
}

// Resume sets going again a payout that owes a step but whose job gave up
// or was lost: its advance job is inserted again and its attention reason
// dropped, in tx, audited under tx's actor.
func Resume(tx *store.Tx, id string) (store.Payment, error) {
	p, err := tx.Payments().LoadPayment(id)
	if err != nil {
		return p, err
	}
	if !store.OwesStep(p.Status) {
		return p, apperr.Errorf(apperr.ErrInvalidState, "payment %s is %s: nothing is owed to it to resume", p.ID, p.Status)
	}
	reason := p.Attention
	if err := tx.Payments().ClearAttention(&p); err != nil {
		return p, err
	}
	if err := tx.Audit(p.UserID, p.Livemode, "payment.resumed", "payment", p.ID,
		map[string]any{"status": p.Status, "attention": reason}); err != nil {
		return p, err
	}
	return p, Enqueue(tx, p)
}

// RetryOrResume is an operator's retry: a FAILED or PENDING payout is
// retried as its owner would (Retry), one that owes a step but has no job
// resumed (Resume).
func RetryOrResume(tx *store.Tx, id string) (store.Payment, error) {
	p, err := tx.Payments().LoadPayment(id)
	if err != nil {
		return p, err
	}
	if store.OwesStep(p.Status) {
		return Resume(tx, id)
	}
	return Retry(tx, p.UserID, id)
}
