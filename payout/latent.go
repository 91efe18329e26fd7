package payout

import (
	"context"
	"time"

	"github.com/payoutd/payoutd/store"
)

// LatentSettlement answers as its Settlement does, each call after
// Latency, as a rail across a network would. The bench drains the
// pipeline over it; it is not Instant, so every step waits outside any
// transaction.
type LatentSettlement struct {
	Settlement
	Latency time.Duration
}

func (l *LatentSettlement) wait(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(l.Latency):
		return nil
	}
}

// Submit waits, then submits.
func (l *LatentSettlement) Submit(ctx context.Context, p store.Payment) (string, error) {
	if err := l.wait(ctx); err != nil {
		return "", err
	}
	return l.Settlement.Submit(ctx, p)
}

// Status waits, then asks.
func (l *LatentSettlement) Status(ctx context.Context, p store.Payment) (Outcome, error) {
	if err := l.wait(ctx); err != nil {
		return Outcome{}, err
	}
	return l.Settlement.Status(ctx, p)
}
