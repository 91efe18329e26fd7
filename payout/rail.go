package payout

import (
	"context"
	"errors"

	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/store"
)

// ErrTransient is a submit failure worth retrying (network, rail busy).
var ErrTransient = errors.New("transient settlement failure")

// Outcome is what the settlement layer says about a submitted payout.
type Outcome struct {
	State  string // Settled, Failed or Unknown
	Rate   money.Rate
	Reason string
}

// Outcome states.
const (
	Settled = "SETTLED"
	Failed  = "FAILED"
	Unknown = "UNKNOWN"
)

// Settlement is the rail a payout settles over.
type Settlement interface {
	// Submit hands the payout to the rail and returns its reference.
	Submit(ctx context.Context, p store.Payment) (ref string, err error)
	// Status asks the rail what became of a submitted payout.
	Status(ctx context.Context, p store.Payment) (Outcome, error)
}

// Instant is implemented by a rail that answers Submit and Status from
// memory, without I/O (the sandbox). Its steps can run one after another
// inside one transaction without holding the write connection for a wait.
type Instant interface {
	Instant() bool
}
