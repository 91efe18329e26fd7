package kyc

import (
	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/store"
)

// Started is the outcome of starting verification. Started is false, with
// no session, when there is nothing to start (APPROVED, or in review).
type Started struct {
	KYC     store.KYC
	Session store.KYCSession
	Started bool
	Message string
}

// Start begins or resumes verification (POST /kyc/start, the console):
// PENDING moves to IN_PROGRESS; IN_PROGRESS and REJECTED (with
// resubmissions left) get a link without moving, since the upload is what
// moves them. An unclaimed, unexpired link is handed out again so repeated
// calls give the same URL.
func Start(tx *store.Tx, userID string, livemode bool) (Started, error) {
	k, err := tx.People().KYCStatus(userID)
	if err != nil {
		return Started{}, err
	}
	out := Started{KYC: k}
	switch k.Status {
	case store.KYCApproved:
		out.Message = "KYC is already approved; there is nothing to start"
		return out, nil
	case store.KYCDocsSubmitted, store.KYCUnderReview:
		out.Message = "documents are submitted and being reviewed; wait for the decision"
		return out, nil
	case store.KYCRejected:
		if len(Allowed(k)) == 0 {
			return out, apperr.Errorf(apperr.ErrInvalidState, "KYC was rejected and all %d resubmissions are used", MaxAttempts)
		}
		out.Message = "resubmission started: open redirectUrl to send new details and documents"
	case store.KYCPending:
		if k, err = move(tx, k, livemode, store.KYCInProgress, ""); err != nil {
			return out, err
		}
		out.KYC = k
		out.Message = "verification started: open redirectUrl to continue"
	default:
		out.Message = "verification in progress: open redirectUrl to continue"
	}
	if cur, err := tx.People().FindKYCSession(k.SessionID); err == nil && cur.ClaimedAt == nil && !cur.Expired(tx.Now()) {
		out.Session, out.Started = cur, true
		return out, nil
	} else if err != nil && apperr.Code(err) != apperr.ErrNotFound {
		return out, err
	}
	out.Session, err = tx.People().NewKYCSession(userID, livemode)
	out.Started = err == nil
	return out, err
}
