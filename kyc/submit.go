package kyc

import (
	"slices"

	"github.com/riverqueue/river"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/store"
)

// CanSubmit reports whether link s may still take identity details and a
// document for record k: the record accepts DOCS_SUBMITTED next and the
// link has not been used for a submission yet (a rejected one needs a new
// link).
func CanSubmit(s store.KYCSession, k store.KYC) error {
	if s.SubmittedAt != nil || !slices.Contains(Allowed(k), store.KYCDocsSubmitted) {
		return apperr.Errorf(apperr.ErrInvalidState, "this verification link no longer accepts submissions (KYC is %s)", k.Status)
	}
	return nil
}

// openForSubmit re-reads the link and its record inside the writing
// transaction, so two tabs submitting at once cannot both pass the checks.
func openForSubmit(tx *store.Tx, sessionID string) (store.KYCSession, store.KYC, error) {
	s, err := tx.People().FindKYCSession(sessionID)
	if err != nil {
		return s, store.KYC{}, err
	}
	k, err := tx.People().KYCStatus(s.UserID)
	if err != nil {
		return s, k, err
	}
	return s, k, CanSubmit(s, k)
}

// SaveIdentity stores the identity details given on the hosted page, while
// the link still takes a submission.
func SaveIdentity(tx *store.Tx, sessionID string, id store.KYCIdentity) error {
	s, _, err := openForSubmit(tx, sessionID)
	if err != nil {
		return err
	}
	return tx.People().SaveKYCIdentity(s, id)
}

// SubmitDocument stores the document given on the link, after its identity
// details, and moves the record to DOCS_SUBMITTED in the same transaction;
// a sandbox user's submission queues the sandbox provider's review.
func SubmitDocument(tx *store.Tx, sessionID string, doc store.KYCDocument, data []byte, sealer *store.Sealer) (store.KYC, store.KYCDocument, error) {
	s, k, err := openForSubmit(tx, sessionID)
	if err != nil {
		return k, doc, err
	}
	if s.IdentityAt == nil {
		return k, doc, apperr.Errorf(apperr.ErrInvalidState, "identity details come before the document")
	}
	if doc, err = tx.People().AddKYCDocument(s, doc, data, sealer); err != nil {
		return k, doc, err
	}
	if k, err = move(tx, k, s.Livemode, store.KYCDocsSubmitted, ""); err != nil || s.Livemode {
		return k, doc, err
	}
	return k, doc, tx.Enqueue(SandboxReviewArgs{UserID: s.UserID}, &river.InsertOpts{ScheduledAt: tx.Now().Add(SandboxPickup)})
}

// AwaitingDecision are the statuses of records waiting for a reviewer.
var AwaitingDecision = []string{store.KYCDocsSubmitted, store.KYCUnderReview}

// Review is the operator's decision on a live user's KYC (payoutd kyc): a
// record waiting in DOCS_SUBMITTED is taken into UNDER_REVIEW first, then
// to APPROVED or REJECTED, each move audited and emitted as the sandbox
// provider's are.
func Review(tx *store.Tx, userID string, livemode, approve bool, reason string) (store.KYC, error) {
	k, err := tx.People().KYCStatus(userID)
	if err != nil {
		return k, err
	}
	if k.Status != store.KYCDocsSubmitted && k.Status != store.KYCUnderReview {
		return k, apperr.Errorf(apperr.ErrInvalidState, "KYC is %s; only DOCS_SUBMITTED or UNDER_REVIEW records are reviewed", k.Status)
	}
	if k.Status == store.KYCDocsSubmitted {
		if k, err = move(tx, k, livemode, store.KYCUnderReview, ""); err != nil {
			return k, err
		}
	}
	to := store.KYCApproved
	if !approve {
		to = store.KYCRejected
		if reason == "" {
			reason = "REJECTED_BY_REVIEWER: the documents could not be verified"
		}
	}
	return move(tx, k, livemode, to, reason)
}
