package jobs

import (
	"github.com/payoutd/payoutd/store"
)

// Retry moves the user's FAILED or PENDING payout back to PROCESSING,
// reserving the funds again, and enqueues its submission (SPEC.md §3).
func Retry(tx *store.Tx, userID, id string) (store.Payment, error) {
	p, err := tx.FindPayment(userID, id)
	if err != nil {
		return p, err
	}
	if p.Status != store.StatusFailed && p.Status != store.StatusPending {
		return p, store.Errorf(store.ErrInvalidState, "only FAILED or PENDING payments can be retried; this one is %s", p.Status)
	}
	if p.VaultID == "" {
		return p, store.Errorf(store.ErrInvalidState, "payment %s was never confirmed against a vault", p.ID)
	}
	if err := tx.Transition(&p, store.StatusProcessing, func(n *store.Payment) { n.Attempt++ }); err != nil {
		return p, err
	}
	return p, Enqueue(tx, p)
}

// Review resolves a MANUAL_REVIEW payout: approve sends it on to
// submission, reject fails it and releases its funds. userID limits it to
// that user's payment (the sandbox endpoint); "" is any owner (the CLI).
func Review(tx *store.Tx, userID, id string, approve bool, reason string) (store.Payment, error) {
	var p store.Payment
	var err error
	if userID == "" {
		p, err = tx.LoadPayment(id)
	} else {
		p, err = tx.FindPayment(userID, id)
	}
	if err != nil {
		return p, err
	}
	if p.Status != store.StatusManualReview {
		return p, store.Errorf(store.ErrInvalidState, "payment %s is %s, not MANUAL_REVIEW", p.ID, p.Status)
	}
	if !approve {
		if reason == "" {
			reason = "rejected by a reviewer"
		}
		return p, tx.Transition(&p, store.StatusFailed, func(n *store.Payment) { n.FailedReason = "COMPLIANCE_REJECTED: " + reason })
	}
	if err := tx.Transition(&p, store.StatusProcessing, nil); err != nil {
		return p, err
	}
	return p, Enqueue(tx, p)
}
