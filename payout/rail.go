package payout

import (
	"context"
	"errors"
	"time"

	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/store"
)

// ErrTransient is a submit failure worth retrying (network, rail busy).
var ErrTransient = errors.New("transient settlement failure")

// Outcome is what the settlement layer says about a submitted payout.
type Outcome struct {
	State  string // Settled, Failed, Unknown or Resign
	Rate   money.Rate
	Reason string
	// SettledAt, on a Settled outcome, is when the money moved on the rail
	// (a live payout: the close time of the ledger that applied it); zero
	// for a rail that moves it when the payout is recorded (the sandbox),
	// whose settlement takes the recording transaction's time.
	SettledAt time.Time
	// AsOf is when Rate was true, when the rail's rates carry that time.
	AsOf time.Time
	// Waiting, on a Settled outcome, says why the payout cannot be valued
	// yet (no rate in hand fresh enough): it is recorded CONFIRMED without
	// its INR value and valued once a fresh rate arrives.
	Waiting string
	// Record, when set, is what the rail stores with a final outcome, in
	// the transaction that records it (the live rail: the envelope's
	// final state, ledger and fee).
	Record func(tx *store.Tx) error
	// Ref is the settlement reference when it is not the one the payout
	// holds: an operator's resolve naming a transaction this database
	// never stored.
	Ref string
}

// Outcome states. Resign is a Signer's submission that provably never
// applied for a reason a new signature cures (the network's fee rose
// above its bid): the payout goes back to PROCESSING and is signed again.
const (
	Settled = "SETTLED"
	Failed  = "FAILED"
	Unknown = "UNKNOWN"
	Resign  = "RESIGN"
)

// Settlement is the rail a payout settles over.
type Settlement interface {
	// Submit hands the payout to the rail and returns its reference.
	Submit(ctx context.Context, p store.Payment) (ref string, err error)
	// Status asks the rail what became of a submitted payout.
	Status(ctx context.Context, p store.Payment) (Outcome, error)
}

// Instant is implemented by a rail that answers Submit and Status from
// memory, without I/O and without side effects, the same answer each time
// it is asked (the sandbox). Its steps can run one after another inside one
// transaction without holding the write connection for a wait, and so may
// be asked again when that transaction is run again (store.DB.WithTx).
type Instant interface {
	Instant() bool
}

// Signer is a rail whose submission is a signed transaction (live Stellar).
// Sign builds and signs it and sends nothing; the pipeline stores it with
// the move to SUBMITTED, and from then on Status sends and follows that
// stored transaction only, so a crash can at worst send it again, never a
// second one.
type Signer interface {
	// Sign returns the envelope and the vault's submission mark read before
	// its chain state: recording it fails with store.ErrVaultBusy if the
	// mark moved, as its sequence number may then be taken. A *Refusal
	// fails the payout; store.ErrVaultBusy and ErrTransient mean later;
	// store.ErrVaultQuarantined means once a person has released the vault.
	Sign(ctx context.Context, p store.Payment) (store.Submission, store.SubmissionMark, error)
}

// Refusal is a payout the rail can never submit as it stands (no asset for
// its currency, a memo that cannot travel): it fails with Reason.
type Refusal struct{ Reason string }

func (r *Refusal) Error() string { return r.Reason }
