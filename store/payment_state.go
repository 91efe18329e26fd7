package store

// Payment statuses.
const (
	StatusInitiated       = "INITIATED"
	StatusComplianceCheck = "COMPLIANCE_CHECK"
	StatusProcessing      = "PROCESSING"
	StatusSubmitted       = "SUBMITTED"
	StatusConfirmed       = "CONFIRMED"
	StatusCompleted       = "COMPLETED"
	StatusManualReview    = "MANUAL_REVIEW"
	StatusFailed          = "FAILED"
	StatusPending         = "PENDING"
	StatusUnknown         = "UNKNOWN"
)

// paymentTransitions is the whole payment state machine. Any move not listed here is refused.
var paymentTransitions = map[string][]string{
	StatusInitiated:       {StatusComplianceCheck, StatusFailed}, // FAILED: cancelled before confirm
	StatusComplianceCheck: {StatusProcessing, StatusManualReview, StatusFailed},
	StatusManualReview:    {StatusProcessing, StatusFailed},
	StatusProcessing:      {StatusSubmitted, StatusPending, StatusFailed},
	// SUBMITTED or UNKNOWN → PROCESSING: the live rail's envelope provably
	// never applied and a new signature cures why (payout.Resign).
	StatusSubmitted: {StatusConfirmed, StatusFailed, StatusUnknown, StatusProcessing},
	StatusUnknown:   {StatusConfirmed, StatusFailed, StatusProcessing},
	StatusConfirmed: {StatusCompleted},
	StatusFailed:    {StatusProcessing},
	StatusPending:   {StatusProcessing},
}

// CanTransition reports whether a payment may move from one status to another.
func CanTransition(from, to string) bool {
	for _, s := range paymentTransitions[from] {
		if s == to {
			return true
		}
	}
	return false
}

// IsFinal reports a status no automatic step leaves.
func IsFinal(status string) bool {
	return status == StatusCompleted || status == StatusFailed || status == StatusPending
}

// OwesStep reports a status the pipeline still has to move on by itself
// (UNKNOWN: asking the rail again); INITIATED waits for confirm,
// MANUAL_REVIEW for a person, the final ones for nobody.
func OwesStep(status string) bool {
	switch status {
	case StatusComplianceCheck, StatusProcessing, StatusSubmitted, StatusConfirmed, StatusUnknown:
		return true
	}
	return false
}

// releasesFunds reports statuses in which the payment holds no reservation.
func releasesFunds(status string) bool {
	return status == StatusFailed || status == StatusPending
}
