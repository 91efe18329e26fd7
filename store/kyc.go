package store

import (
	"context"

	"github.com/payoutd/payoutd/apperr"
)

// KYC statuses.
const (
	KYCPending       = "PENDING"
	KYCInProgress    = "IN_PROGRESS"
	KYCDocsSubmitted = "DOCS_SUBMITTED"
	KYCUnderReview   = "UNDER_REVIEW"
	KYCApproved      = "APPROVED"
	KYCRejected      = "REJECTED"
)

// MaxKYCAttempts is how many times a rejected user may resubmit.
const MaxKYCAttempts = 3

// KYC is a user's verification record.
type KYC struct {
	UserID    string
	Status    string
	Attempts  int
	SessionID string
	Reason    string
}

// kycMoves is the KYC state machine; REJECTED → DOCS_SUBMITTED also needs
// attempts left (AllowedTransitions).
var kycMoves = map[string][]string{
	KYCPending:       {KYCInProgress},
	KYCInProgress:    {KYCDocsSubmitted},
	KYCDocsSubmitted: {KYCUnderReview},
	KYCUnderReview:   {KYCApproved, KYCRejected},
	KYCRejected:      {KYCDocsSubmitted},
	KYCApproved:      {},
}

// AllowedTransitions lists the states the record may move to next.
func (k KYC) AllowedTransitions() []string {
	if k.Status == KYCRejected && k.Attempts >= MaxKYCAttempts {
		return []string{}
	}
	return append([]string{}, kycMoves[k.Status]...)
}

// KYCStatus reads a user's KYC record.
func (db *DB) KYCStatus(ctx context.Context, userID string) (KYC, error) {
	k := KYC{UserID: userID}
	err := db.r.QueryRowContext(ctx, "SELECT status, attempts, session_id, reason FROM kyc WHERE user_id = ?", userID).
		Scan(&k.Status, &k.Attempts, &k.SessionID, &k.Reason)
	return k, notFound(err, apperr.ErrNotFound, "kyc record")
}

// KYCStatus reads a user's KYC record inside a transaction.
func (tx *Tx) KYCStatus(userID string) (KYC, error) {
	k := KYC{UserID: userID}
	err := tx.queryRow("SELECT status, attempts, session_id, reason FROM kyc WHERE user_id = ?", userID).
		Scan(&k.Status, &k.Attempts, &k.SessionID, &k.Reason)
	return k, notFound(err, apperr.ErrNotFound, "kyc record")
}
