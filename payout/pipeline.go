// Package payout is the one home of what moves a payout: the operations a
// request starts (initiate, confirm, retry, review), the pipeline steps a
// River job takes after confirm (compliance, submit, settle, complete), and
// the settlement rails they talk to. The server and the CLI call the
// operations; River runs AdvanceWorker. A payout moves only inside a
// store transaction that also writes its audit row and event, and every
// transaction that makes a payout owe a step inserts its payment_advance
// job (InsertTx) before it commits.
package payout

import (
	"log/slog"
	"time"

	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/store"
)

// Pipeline is what every payout step shares.
type Pipeline struct {
	DB    *store.DB
	Rail  Settlement // sandbox rail
	Live  Settlement // live rail; nil when none is configured
	Rates rates.Table
	Log   *slog.Logger

	// SubmitAttempts transient submit failures are retried in-job, SubmitBackoff
	// apart, before the payout is parked as PENDING.
	SubmitAttempts int
	SubmitBackoff  time.Duration
	// UnknownPoll is how often an UNKNOWN payout is asked about again.
	UnknownPoll time.Duration
	// LiveUnknownAfter is how long a live payout stays SUBMITTED while the
	// network has no outcome for it before it is UNKNOWN (and
	// payout.unknown is sent): a transaction takes a few ledgers to apply,
	// and one that does has not been unknown to anyone. 0: at once.
	LiveUnknownAfter time.Duration
	// LivePoll is how often a live payout waiting on the network (its
	// vault's previous transaction, the outcome of its own) looks again;
	// 0 means DefaultLivePoll.
	LivePoll time.Duration
	// WaitMax caps how long a live payout waits between two looks, its
	// wait growing with the time it has waited (liveWait); 0 means
	// DefaultWaitMax.
	WaitMax time.Duration
	// LiveRate is the live INR rate as of a time (a settlement's), with
	// the time the rate itself was true; an error (none that recent)
	// leaves a settled live payout waiting for its value, looked at again
	// every RateRecheck (0: DefaultRateRecheck).
	LiveRate    func(currency string, at time.Time) (money.Rate, time.Time, error)
	RateRecheck time.Duration
	// QuarantinePoll is how often a payout waiting on its quarantined
	// vault looks again (0: DefaultQuarantinePoll).
	QuarantinePoll time.Duration
	// ReviewThresholdINR sends payouts worth at least this many paise to
	// manual review.
	ReviewThresholdINR int64
	// BlockedCountries fail compliance outright.
	BlockedCountries map[string]bool
}

// DefaultBlockedCountries are refused by compliance.
var DefaultBlockedCountries = map[string]bool{"KP": true, "IR": true}

// DefaultReviewThresholdINR is ₹1 crore: a single payout that large is held
// for a person to look at.
const DefaultReviewThresholdINR = 1_00_00_000_00

func (pl *Pipeline) rail(p store.Payment) Settlement {
	if p.Livemode {
		return pl.Live
	}
	return pl.Rail
}

// DefaultLivePoll is about a Stellar ledger's close time.
const DefaultLivePoll = time.Second

func (pl *Pipeline) livePoll() time.Duration {
	if pl.LivePoll > 0 {
		return pl.LivePoll
	}
	return DefaultLivePoll
}

// DefaultRateRecheck is how often a payout waiting for a fresh rate looks.
const DefaultRateRecheck = time.Minute

func (pl *Pipeline) rateRecheck() time.Duration {
	if pl.RateRecheck > 0 {
		return pl.RateRecheck
	}
	return DefaultRateRecheck
}

// DefaultQuarantinePoll is how soon a payout whose vault is quarantined
// goes on after a person releases it.
const DefaultQuarantinePoll = 30 * time.Second

func (pl *Pipeline) quarantinePoll() time.Duration {
	if pl.QuarantinePoll > 0 {
		return pl.QuarantinePoll
	}
	return DefaultQuarantinePoll
}
