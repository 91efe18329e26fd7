package jobs

// Job arguments carry only the payment id: workers reload current state, so a
// job run twice sees what the first run did and does nothing more.

// ComplianceArgs runs the automated compliance check of a confirmed payout.
type ComplianceArgs struct {
	PaymentID string `json:"paymentId"`
}

// Kind is the stable job kind.
func (ComplianceArgs) Kind() string { return "payment_compliance_check" }

// SubmitArgs submits a payout to the rail and polls it to an outcome.
type SubmitArgs struct {
	PaymentID string `json:"paymentId"`
}

// Kind is the stable job kind.
func (SubmitArgs) Kind() string { return "payment_submit" }

// ResolveUnknownArgs keeps asking the rail about an UNKNOWN payout.
type ResolveUnknownArgs struct {
	PaymentID string `json:"paymentId"`
}

// Kind is the stable job kind.
func (ResolveUnknownArgs) Kind() string { return "payment_resolve_unknown" }

// PostSettlementArgs does the book-keeping after settlement and completes the payout.
type PostSettlementArgs struct {
	PaymentID string `json:"paymentId"`
}

// Kind is the stable job kind.
func (PostSettlementArgs) Kind() string { return "payment_post_settlement" }
