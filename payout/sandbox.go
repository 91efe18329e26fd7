package payout

import (
	"context"
	"fmt"
	"time"

	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/store"
)

// Sandbox outcome triggers: the amount's two outcome digits.
const (
	TriggerSettlementRejected = 13
	TriggerTransient          = 42
	TriggerManualReview       = 66
	TriggerUnknown            = 99
)

// SandboxTrigger is the amount's two outcome digits: its first two decimals
// (the "cents": USD 10.13, KWD 10.130 and 10.139 are 13), or, in a currency
// with fewer than two decimals, the last two digits of its minor units
// (JPY 1513 is 13), so every currency can reach every outcome.
func SandboxTrigger(p store.Payment) int64 {
	cur, ok := money.Lookup(p.Currency)
	if !ok {
		return 0
	}
	v := p.Amount
	for i := 2; i < cur.Exponent; i++ {
		v /= 10
	}
	return v % 100
}

// SandboxSettlement is the deterministic rail of sandbox mode. Triggers fire
// on a payout's first attempt only, so a retry succeeds.
type SandboxSettlement struct {
	Rates         rates.Table
	UnknownWindow time.Duration
	Now           func() time.Time
}

// Submit fails transiently for the .42 trigger.
func (s *SandboxSettlement) Submit(ctx context.Context, p store.Payment) (string, error) {
	if p.Attempt == 0 && SandboxTrigger(p) == TriggerTransient {
		return "", fmt.Errorf("sandbox trigger .42: %w", ErrTransient)
	}
	return "sbx_" + p.ID[len("pay_"):], nil
}

// Status settles at the table rate, rejects .13 and keeps .99 unknown for
// the unknown window after the payout became UNKNOWN.
func (s *SandboxSettlement) Status(ctx context.Context, p store.Payment) (Outcome, error) {
	rate, ok := s.Rates[p.Currency]
	if !ok {
		return Outcome{State: Failed, Reason: "SETTLEMENT_REJECTED: no sandbox rate for " + p.Currency}, nil
	}
	if p.Attempt == 0 {
		switch SandboxTrigger(p) {
		case TriggerSettlementRejected:
			return Outcome{State: Failed, Reason: "SETTLEMENT_REJECTED: sandbox trigger .13 (the rail refused the payout)"}, nil
		case TriggerUnknown:
			if p.Status != store.StatusUnknown || s.Now().Before(p.UpdatedAt.Add(s.UnknownWindow)) {
				return Outcome{State: Unknown}, nil
			}
		}
	}
	return Outcome{State: Settled, Rate: rate}, nil
}

// Instant: the sandbox rail computes every answer from the payout itself.
func (s *SandboxSettlement) Instant() bool { return true }
