package stellar

import (
	"context"
	"fmt"
	"time"

	"github.com/stellar/go-stellar-sdk/clients/rpcclient"
	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
)

// MaxClockSkew is how far payoutd's clock may be from the close time of
// the network's latest ledger before start-up logs it and /readyz shows
// it. Ledgers close every five seconds or so, so the latest close time
// trails a correct clock by up to that much.
const MaxClockSkew = 10 * time.Second

// networkNow is the close time of the network's latest ledger: the clock a
// transaction's time bounds are judged by, whatever payoutd's own says.
func (r *Rail) networkNow(ctx context.Context) (time.Time, error) {
	l, err := call(ctx, r, func(ctx context.Context, c *rpcclient.Client) (protocol.GetLatestLedgerResponse, error) {
		return c.GetLatestLedger(ctx)
	})
	if err != nil {
		return time.Time{}, transient("getLatestLedger", err)
	}
	if l.LedgerCloseTime <= 0 {
		return time.Time{}, transient("getLatestLedger", fmt.Errorf("ledger %d without a close time", l.Sequence))
	}
	return time.Unix(l.LedgerCloseTime, 0).UTC(), nil
}

// ClockSkew is payoutd's clock minus the network's (the latest ledger's
// close time): negative when payoutd's clock is behind.
func (r *Rail) ClockSkew(ctx context.Context) (time.Duration, error) {
	net, err := r.networkNow(ctx)
	if err != nil {
		return 0, err
	}
	return r.Now().Sub(net).Round(time.Second), nil
}

// skewed reports a skew worth telling an operator about.
func skewed(d time.Duration) bool { return d > MaxClockSkew || d < -MaxClockSkew }
