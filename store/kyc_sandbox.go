package store

import (
	"context"
	"strings"
	"time"

	"github.com/riverqueue/river"

	"github.com/payoutd/payoutd/apperr"
)

// The sandbox verification provider. A sandbox user's submitted documents
// are reviewed by a River job (sandbox_kyc_review) inserted with the
// submission: DOCS_SUBMITTED → UNDER_REVIEW after SandboxReviewPickup, then
// the decision after SandboxReviewDecide, each an audited move with its
// kyc.updated event. A reader (GET /kyc/status, the hosted page) also takes
// any step that is due before answering, so nobody sees a stale state.
// Live users have no provider here: the operator decides (payoutd kyc).

// The sandbox provider's pace: slow enough that the hosted
// page shows each state, fast enough for tests and a demo.
const (
	SandboxReviewPickup = time.Second     // DOCS_SUBMITTED → UNDER_REVIEW
	SandboxReviewDecide = 2 * time.Second // UNDER_REVIEW → APPROVED or REJECTED
)

// SandboxProviderActor labels the audit rows of the sandbox provider's moves.
const SandboxProviderActor = "kyc-provider:sandbox"

// SandboxKYCReviewArgs is the sandbox provider's review of one user's
// submitted documents (the worker is jobs.SandboxKYCWorker).
type SandboxKYCReviewArgs struct {
	UserID string `json:"userId"`
}

// Kind is the stable job kind.
func (SandboxKYCReviewArgs) Kind() string { return "sandbox_kyc_review" }

// enqueueSandboxReview inserts the review of a sandbox user's submission,
// due when its first step is.
func (tx *Tx) enqueueSandboxReview(userID string) error {
	return tx.Enqueue(SandboxKYCReviewArgs{UserID: userID}, &river.InsertOpts{ScheduledAt: tx.now.Add(SandboxReviewPickup)})
}

// SandboxKYCReview takes the sandbox provider's steps that are due for one
// user and says how long until its next one (0: nothing left to do).
func (tx *Tx) SandboxKYCReview(userID string) (KYC, time.Duration, error) {
	k, err := tx.advanceSandboxKYC(userID)
	if err != nil {
		return k, 0, err
	}
	var livemode bool
	var updated int64
	if err := tx.queryRow("SELECT u.livemode, k.updated_at FROM kyc k JOIN users u ON u.id = k.user_id WHERE k.user_id = ?", userID).
		Scan(&livemode, &updated); err != nil || livemode {
		return k, 0, err
	}
	since := tx.now.Sub(fromMS(updated))
	switch k.Status {
	case KYCDocsSubmitted:
		return k, max(SandboxReviewPickup-since, time.Millisecond), nil
	case KYCUnderReview:
		return k, max(SandboxReviewDecide-since, time.Millisecond), nil
	}
	return k, 0, nil
}

// CurrentKYC reads a user's KYC record after letting the sandbox provider
// take any step that is due, so a reader never sees a stale review state;
// requestID labels the provider's audit rows.
func (db *DB) CurrentKYC(ctx context.Context, userID, requestID string) (KYC, error) {
	due, err := db.sandboxKYCDue(ctx, db.Now(), userID)
	if err != nil {
		return KYC{}, err
	}
	if !due {
		return db.KYCStatus(ctx, userID)
	}
	var k KYC
	err = db.WithTx(ctx, func(tx *Tx) (err error) {
		k, err = tx.advanceSandboxKYC(userID)
		return err
	}, WithActor(SandboxProviderActor, requestID))
	return k, err
}

// sandboxKYCDue reports whether a sandbox user's review step is due at now.
func (db *DB) sandboxKYCDue(ctx context.Context, now time.Time, userID string) (bool, error) {
	var n int
	err := db.r.QueryRowContext(ctx, `SELECT count(*) FROM kyc k JOIN users u ON u.id = k.user_id
		WHERE k.user_id = ? AND u.livemode = 0 AND ((k.status = ? AND k.updated_at <= ?) OR (k.status = ? AND k.updated_at <= ?))`,
		userID, KYCDocsSubmitted, ms(now.Add(-SandboxReviewPickup)), KYCUnderReview, ms(now.Add(-SandboxReviewDecide))).Scan(&n)
	return n > 0, err
}

// SandboxDecision is the sandbox provider's verdict: approve,
// unless the legal name or the PAN contains REJECT.
func SandboxDecision(id KYCIdentity) (approve bool, reason string) {
	if strings.Contains(strings.ToUpper(id.FullName), "REJECT") || strings.Contains(strings.ToUpper(id.PAN), "REJECT") {
		return false, "SANDBOX_REJECTED: the name or PAN contains REJECT"
	}
	return true, ""
}

// advanceSandboxKYC performs the sandbox provider's steps that are due for
// one user: DOCS_SUBMITTED → UNDER_REVIEW after SandboxReviewPickup, then the
// decision after SandboxReviewDecide. Live users have no provider here and
// are left waiting in DOCS_SUBMITTED.
func (tx *Tx) advanceSandboxKYC(userID string) (KYC, error) {
	k, err := tx.KYCStatus(userID)
	if err != nil {
		return k, err
	}
	var livemode bool
	if err := tx.queryRow("SELECT livemode FROM users WHERE id = ?", userID).Scan(&livemode); err != nil || livemode {
		return k, err
	}
	for {
		var updated int64
		if err := tx.queryRow("SELECT updated_at FROM kyc WHERE user_id = ?", userID).Scan(&updated); err != nil {
			return k, err
		}
		since := tx.now.Sub(fromMS(updated))
		switch {
		case k.Status == KYCDocsSubmitted && since >= SandboxReviewPickup:
			k, err = tx.moveKYC(k, false, KYCUnderReview, "")
		case k.Status == KYCUnderReview && since >= SandboxReviewDecide:
			id, err := tx.KYCIdentityOf(userID)
			if err != nil {
				return k, err
			}
			to, reason := KYCApproved, ""
			if ok, why := SandboxDecision(id); !ok {
				to, reason = KYCRejected, why
			}
			return tx.moveKYC(k, false, to, reason)
		default:
			return k, nil
		}
		if err != nil {
			return k, err
		}
	}
}

// SandboxWalkKYC takes a sandbox user through the remaining states to
// APPROVED (approve) or REJECTED, one audited move at a time, the way the
// provider would. A REJECTED user with resubmissions left resubmits first.
func (tx *Tx) SandboxWalkKYC(userID string, approve bool, reason string) (KYC, error) {
	k, err := tx.KYCStatus(userID)
	if err != nil {
		return k, err
	}
	target := KYCApproved
	if !approve {
		target = KYCRejected
		if reason == "" {
			reason = "SANDBOX_REJECTED: rejected through POST /sandbox/kyc/reject"
		}
	}
	if len(k.AllowedTransitions()) == 0 {
		return k, apperr.Errorf(apperr.ErrInvalidState, "KYC is %s and cannot move any further", k.Status)
	}
	next := map[string]string{
		KYCPending: KYCInProgress, KYCInProgress: KYCDocsSubmitted, KYCDocsSubmitted: KYCUnderReview,
		KYCRejected: KYCDocsSubmitted, KYCUnderReview: target,
	}
	for {
		to := next[k.Status]
		// livemode false: the handler lets only sandbox keys, hence sandbox users, here.
		if k, err = tx.moveKYC(k, false, to, reason); err != nil || to == target {
			return k, err
		}
	}
}
