package kyc

import (
	"context"
	"strings"
	"time"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/store"
)

// The sandbox verification provider. A sandbox user's submitted documents
// are reviewed by a River job (sandbox_kyc_review) inserted with the
// submission: DOCS_SUBMITTED → UNDER_REVIEW after SandboxPickup, then the
// decision after SandboxDecide, each an audited move with its kyc.updated
// event. A reader (GET /kyc/status, the hosted page) also takes any step
// that is due before answering, so nobody sees a stale state. Live users
// have no provider here: the operator decides (payoutd kyc).

// The sandbox provider's pace: slow enough that the hosted page shows each
// state, fast enough for tests and a demo.
const (
	SandboxPickup = time.Second     // DOCS_SUBMITTED → UNDER_REVIEW
	SandboxDecide = 2 * time.Second // UNDER_REVIEW → APPROVED or REJECTED
)

// SandboxActor labels the audit rows of the sandbox provider's moves.
const SandboxActor = "kyc-provider:sandbox"

// SandboxReviewArgs is the sandbox provider's review of one user's
// submitted documents (the worker is jobs.SandboxKYCWorker).
type SandboxReviewArgs struct {
	UserID string `json:"userId"`
}

// Kind is the stable job kind.
func (SandboxReviewArgs) Kind() string { return "sandbox_kyc_review" }

// SandboxDecision is the sandbox provider's verdict: approve, unless the
// legal name or the PAN contains REJECT.
func SandboxDecision(id store.KYCIdentity) (approve bool, reason string) {
	if strings.Contains(strings.ToUpper(id.FullName), "REJECT") || strings.Contains(strings.ToUpper(id.PAN), "REJECT") {
		return false, "SANDBOX_REJECTED: the name or PAN contains REJECT"
	}
	return true, ""
}

// SandboxStep is the sandbox provider's next step for a record in status
// since its last move: the state it moves to now (UNDER_REVIEW, or
// DECIDE for the verdict; "" when none is due) and, when none is due, how
// long until one is (0: the provider has nothing left to do).
func SandboxStep(status string, since time.Duration) (to string, wait time.Duration) {
	switch status {
	case store.KYCDocsSubmitted:
		if since >= SandboxPickup {
			return store.KYCUnderReview, 0
		}
		return "", SandboxPickup - since
	case store.KYCUnderReview:
		if since >= SandboxDecide {
			return Decide, 0
		}
		return "", SandboxDecide - since
	}
	return "", 0
}

// Decide is the step SandboxStep names when the verdict is due.
const Decide = "DECIDE"

// SandboxReview takes the sandbox provider's steps that are due for one
// user and says how long until its next one (0: nothing left to do).
func SandboxReview(tx *store.Tx, userID string) (store.KYC, time.Duration, error) {
	k, err := advance(tx, userID)
	if err != nil {
		return k, 0, err
	}
	if live, err := tx.People().UserLivemode(userID); err != nil || live {
		return k, 0, err
	}
	_, wait := SandboxStep(k.Status, tx.Now().Sub(k.UpdatedAt))
	if wait > 0 {
		wait = max(wait, time.Millisecond)
	}
	return k, wait, nil
}

// Current reads a user's KYC record after letting the sandbox provider take
// any step that is due, so a reader never sees a stale review state;
// requestID labels the provider's audit rows.
func Current(ctx context.Context, db *store.DB, userID, requestID string) (store.KYC, error) {
	k, err := db.People().KYCStatus(ctx, userID)
	if err != nil {
		return k, err
	}
	if to, _ := SandboxStep(k.Status, db.Now().Sub(k.UpdatedAt)); to == "" {
		return k, nil
	}
	if u, err := db.People().FindUser(ctx, userID); err != nil || u.Livemode {
		return k, err // a live user's review is the operator's
	}
	err = db.WithTx(ctx, func(tx *store.Tx) (err error) {
		k, err = advance(tx, userID)
		return err
	}, store.WithActor(SandboxActor, requestID))
	return k, err
}

// advance performs the sandbox provider's steps that are due for one user.
// Live users have no provider here and are left waiting in DOCS_SUBMITTED.
func advance(tx *store.Tx, userID string) (store.KYC, error) {
	k, err := tx.People().KYCStatus(userID)
	if err != nil {
		return k, err
	}
	if live, err := tx.People().UserLivemode(userID); err != nil || live {
		return k, err
	}
	for {
		switch to, _ := SandboxStep(k.Status, tx.Now().Sub(k.UpdatedAt)); to {
		case "":
			return k, nil
		case Decide:
			id, err := tx.People().KYCIdentityOf(userID)
			if err != nil {
				return k, err
			}
			to, reason := store.KYCApproved, ""
			if ok, why := SandboxDecision(id); !ok {
				to, reason = store.KYCRejected, why
			}
			return move(tx, k, false, to, reason)
		default:
			if k, err = move(tx, k, false, to, ""); err != nil {
				return k, err
			}
		}
	}
}

// SandboxWalk takes a sandbox user through the remaining states to
// APPROVED (approve) or REJECTED, one audited move at a time, the way the
// provider would. A REJECTED user with resubmissions left resubmits first.
func SandboxWalk(tx *store.Tx, userID string, approve bool, reason string) (store.KYC, error) {
	k, err := tx.People().KYCStatus(userID)
	if err != nil {
		return k, err
	}
	target := store.KYCApproved
	if !approve {
		target = store.KYCRejected
		if reason == "" {
			reason = "SANDBOX_REJECTED: rejected through POST /sandbox/kyc/reject"
		}
	}
	if len(Allowed(k)) == 0 {
		return k, apperr.Errorf(apperr.ErrInvalidState, "KYC is %s and cannot move any further", k.Status)
	}
	next := map[string]string{
		store.KYCPending: store.KYCInProgress, store.KYCInProgress: store.KYCDocsSubmitted, store.KYCDocsSubmitted: store.KYCUnderReview,
		store.KYCRejected: store.KYCDocsSubmitted, store.KYCUnderReview: target,
	}
	for {
		to := next[k.Status]
		// livemode false: the handler lets only sandbox keys, hence sandbox users, here.
		if k, err = move(tx, k, false, to, reason); err != nil || to == target {
			return k, err
		}
	}
}
