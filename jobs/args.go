package jobs

// AdvanceArgs carries one payout through the pipeline: compliance check →
// submit → settlement poll → CONFIRMED → post-settlement → COMPLETED. Each
// step is its own transaction (state change + audit row + event), and the
// job resumes from whatever state the payout is in, so a run cut short by a
// crash continues where it stopped and a run repeated changes nothing.
//
// One job per payout rather than one per step: every job costs River an
// insert, a fetch and a completion on the single SQLite writer, and the
// pipeline's throughput is bounded by that writer (docs/performance.md).
// For the same reason a server hands a newly ready payout to its in-process
// Dispatcher first; the job is for what that cannot finish at once, for the
// CLI, and for the sweep. Only the payment id travels: workers reload
// current state.
type AdvanceArgs struct {
	PaymentID string `json:"paymentId"`
}

// Kind is the stable job kind.
func (AdvanceArgs) Kind() string { return "payment_advance" }
