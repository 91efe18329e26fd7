// Package kyc holds the rules of a user's verification: which move a KYC
// record may make next, how many resubmissions a rejected user has, and the
// sandbox provider's pace and verdict. The rules are pure functions over
// the stored record; the flows in this package apply them to a store
// transaction, which records the moves it is handed.
package kyc

import (
	"slices"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/store"
)

// MaxAttempts is how many times a rejected user may resubmit.
const MaxAttempts = 3

// moves is the state machine; REJECTED → DOCS_SUBMITTED also needs
// attempts left (Allowed).
var moves = map[string][]string{
	store.KYCPending:       {store.KYCInProgress},
	store.KYCInProgress:    {store.KYCDocsSubmitted},
	store.KYCDocsSubmitted: {store.KYCUnderReview},
	store.KYCUnderReview:   {store.KYCApproved, store.KYCRejected},
	store.KYCRejected:      {store.KYCDocsSubmitted},
	store.KYCApproved:      {},
}

// Allowed lists the states k may move to next.
func Allowed(k store.KYC) []string {
	if k.Status == store.KYCRejected && k.Attempts >= MaxAttempts {
		return []string{}
	}
	return append([]string{}, moves[k.Status]...)
}

// ResubmitsLeft is how many more times k may be resubmitted after a
// rejection.
func ResubmitsLeft(k store.KYC) int { return max(MaxAttempts-k.Attempts, 0) }

// Next is the move of k to status to: the record as it is to be written
// (a resubmission from REJECTED counts an attempt; a reason is kept only
// on REJECTED) and the moves it allows after. A move outside the machine
// is ErrInvalidState.
func Next(k store.KYC, to, reason string) (store.KYCMove, error) {
	if !slices.Contains(Allowed(k), to) {
		return store.KYCMove{}, apperr.Errorf(apperr.ErrInvalidState, "KYC cannot move from %s to %s", k.Status, to)
	}
	next := k
	if k.Status == store.KYCRejected {
		next.Attempts++
	}
	if to != store.KYCRejected {
		reason = ""
	}
	next.Status, next.Reason = to, reason
	return store.KYCMove{From: k, To: next, AllowedNext: Allowed(next)}, nil
}

// move applies Next to the record in tx.
func move(tx *store.Tx, k store.KYC, livemode bool, to, reason string) (store.KYC, error) {
	m, err := Next(k, to, reason)
	if err != nil {
		return k, err
	}
	m.Livemode = livemode
	return tx.People().RecordKYCMove(m)
}
