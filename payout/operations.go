package payout

import (
	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/store"
)

// Initiate records an intended payout; no money moves. Its INR value at
// the indicative rates r must be within MaxPayoutINRPaise.
func Initiate(tx *store.Tx, r rates.Table, p store.Payment) (store.Payment, error) {
	if err := checkValueCap(r, p); err != nil {
		return store.Payment{}, err
	}
	if err := RequireKYC(tx, p); err != nil {
		return store.Payment{}, err
	}
	return tx.Payments().CreatePayment(p)
}

// Confirm checks the confirmation against the initiated payout and its
// funding vault, reserves the funds, moves it to COMPLIANCE_CHECK and
// queues its pipeline job, all in tx.
func Confirm(tx *store.Tx, userID string, in store.ConfirmInput) (store.Payment, error) {
	// The caller's own rule (the live rail's) runs after the KYC rule.
	extra := in.Allow
	in.Allow = func(tx *store.Tx, p store.Payment) error {
		if err := RequireKYC(tx, p); err != nil || extra == nil {
			return err
		}
		return extra(tx, p)
	}
	p, err := tx.Payments().ConfirmPayment(userID, in)
	if err != nil {
		return store.Payment{}, err
	}
	return p, Enqueue(tx, p)
}

// RequireKYC is the one KYC rule: a cross-border payout needs the user's
// KYC APPROVED, at initiate and again at confirm; a domestic one needs no
// KYC read at all.
func RequireKYC(tx *store.Tx, p store.Payment) error {
	if !p.CrossBorder() {
		return nil
	}
	k, err := tx.People().KYCStatus(p.UserID)
	if err != nil {
		return err
	}
	if k.Status != store.KYCApproved {
		return apperr.Errorf(apperr.ErrKYCRequired, "cross-border payouts require KYC status APPROVED (current: %s)", k.Status)
	}
	return nil
}

// Retry moves the user's FAILED or PENDING payout back to PROCESSING,
// reserving the funds again, and queues its submission.
func Retry(tx *store.Tx, userID, id string) (store.Payment, error) {
	p, err := tx.Payments().FindPayment(userID, id)
	if err != nil {
		return p, err
	}
	if !CanRetry(p) {
		if IsCancelled(p) {
			return p, apperr.Errorf(apperr.ErrInvalidState, "payment %s was cancelled before it was confirmed; initiate a new one", p.ID)
		}
		if p.Status != store.StatusFailed && p.Status != store.StatusPending {
			return p, apperr.Errorf(apperr.ErrInvalidState, "only FAILED or PENDING payments can be retried; this one is %s", p.Status)
		}
		return p, apperr.Errorf(apperr.ErrInvalidState, "payment %s was never confirmed against a vault", p.ID)
	}
	if m, ok, err := PaidOutside(tx, p); err != nil || ok {
		if err == nil {
			err = paidOutsideError(p, m)
		}
		return p, err
	}
	if err := tx.Payments().Transition(&p, store.StatusProcessing, func(n *store.Payment) { n.Attempt++ }); err != nil {
		return p, err
	}
	return p, Enqueue(tx, p)
}

// CanRetry reports whether Retry accepts p: FAILED or PENDING, once
// confirmed against a vault.
func CanRetry(p store.Payment) bool {
	return (p.Status == store.StatusFailed || p.Status == store.StatusPending) && p.VaultID != ""
}

// CancelledReason is the failedReason of a payout cancelled before it was
// confirmed; its code, CANCELLED, is what clients branch on.
const CancelledReason = "CANCELLED: cancelled before it was confirmed"

// Cancel ends the user's INITIATED payout: FAILED with CancelledReason.
// Nothing was reserved, so nothing is released. Cancelling a cancelled
// payout answers it as it is; any other status is ERR_INVALID_STATE, for
// a confirmed payout may already be on its way.
func Cancel(tx *store.Tx, userID, id string) (store.Payment, error) {
	p, err := tx.Payments().FindPayment(userID, id)
	if err != nil {
		return p, err
	}
	if IsCancelled(p) {
		return p, nil
	}
	if p.Status != store.StatusInitiated {
		return p, apperr.Errorf(apperr.ErrInvalidState, "only INITIATED payouts can be cancelled; this one is %s", p.Status)
	}
	return p, tx.Payments().Transition(&p, store.StatusFailed, func(n *store.Payment) { n.FailedReason = CancelledReason })
}

// IsCancelled reports a payout ended by Cancel.
func IsCancelled(p store.Payment) bool {
	return p.Status == store.StatusFailed && p.FailedReason == CancelledReason
}

// Review resolves a MANUAL_REVIEW payout: approve sends it on to
// submission, reject fails it and releases its funds. userID limits it to
// that user's payment (the sandbox endpoint); "" is any owner (the CLI).
func Review(tx *store.Tx, userID, id string, approve bool, reason string) (store.Payment, error) {
	var p store.Payment
	var err error
	if userID == "" {
		p, err = tx.Payments().LoadPayment(id)
	} else {
		p, err = tx.Payments().FindPayment(userID, id)
	}
	if err != nil {
		return p, err
	}
	if p.Status != store.StatusManualReview {
		return p, apperr.Errorf(apperr.ErrInvalidState, "payment %s is %s, not MANUAL_REVIEW", p.ID, p.Status)
	}
	if !approve {
		if reason == "" {
			reason = "rejected by a reviewer"
		}
		return p, tx.Payments().Transition(&p, store.StatusFailed, func(n *store.Payment) { n.FailedReason = "COMPLIANCE_REJECTED: " + reason })
	}
	if err := tx.Payments().Transition(&p, store.StatusProcessing, nil); err != nil {
		return p, err
	}
	return p, Enqueue(tx, p)
}
