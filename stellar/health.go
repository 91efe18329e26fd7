package stellar

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/clients/rpcclient"
	"github.com/stellar/go-stellar-sdk/network"
	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
)

// ErrWrongNetwork is an RPC server on another network than configured:
// serve refuses to start rather than sign for the wrong one.
var ErrWrongNetwork = errors.New("wrong Stellar network")

// CheckNetwork asks the RPC server which network it serves. A different
// passphrase is ErrWrongNetwork with both named; an unreachable server is
// a plain error (serve starts anyway and live confirms answer 503).
func (r *Rail) CheckNetwork(ctx context.Context) error {
	n, err := call(ctx, r, func(ctx context.Context, c *rpcclient.Client) (protocol.GetNetworkResponse, error) {
		return c.GetNetwork(ctx)
	})
	if err != nil {
		return fmt.Errorf("stellar rpc %s: getNetwork: %w", r.RPCURL, err)
	}
	if n.Passphrase != r.Passphrase {
		return fmt.Errorf("%w: -stellar-network is %q but the RPC server at %s serves %q", ErrWrongNetwork, r.Passphrase, r.RPCURL, n.Passphrase)
	}
	r.verified.Store(true)
	return nil
}

// Health is the rail's line in /readyz.
type Health struct {
	Status       string `json:"status"` // up, behind or unreachable
	Network      string `json:"network"`
	LatestLedger uint32 `json:"latestLedger,omitempty"`
	// ClockSkewSeconds is payoutd's clock minus the close time of the
	// network's latest ledger, when beyond MaxClockSkew. Time bounds are
	// set on the network's clock, so a skew misleads only payoutd's own
	// timestamps (createdAt, audit rows), not what it signs.
	ClockSkewSeconds int64  `json:"clockSkewSeconds,omitempty"`
	Error            string `json:"error,omitempty"`
}

// Health asks the RPC server for its health, and returns what /readyz
// should list as degraded.
func (r *Rail) Health(ctx context.Context) (any, []string) {
	h := Health{Status: "up", Network: r.NetworkName()}
	// /readyz is polled by health checks with short deadlines of their own.
	ctx, cancel := context.WithTimeout(ctx, min(r.callTimeout(), 2*time.Second))
	defer cancel()
	c := r.rpc()
	defer c.Close()
	resp, err := c.GetHealth(ctx)
	if err != nil {
		// A node too far behind reports itself unhealthy: its latest
		// ledger says whether it is behind or down.
		if l, lerr := c.GetLatestLedger(ctx); lerr == nil {
			resp.Status, resp.LatestLedger, resp.LatestLedgerCloseTime = "healthy", l.Sequence, l.LedgerCloseTime
			if l.Sequence >= r.Seen() {
				resp.Status = err.Error()
			}
			err = nil
		}
	}
	switch {
	case err != nil:
		h.Status, h.Error = "unreachable", err.Error()
	case resp.Status != "healthy":
		h.Status, h.Error = "unreachable", "the RPC server reports "+resp.Status
	case !r.verified.Load():
		// Up, but not yet known to serve the configured network.
		if err := r.CheckNetwork(ctx); err != nil {
			h.Status, h.Error = "unreachable", err.Error()
		}
	}
	h.LatestLedger = resp.LatestLedger
	if seen := r.Seen(); h.Status == "up" && resp.LatestLedger < seen {
		h.Status, h.Error = "behind", fmt.Sprintf("the RPC server's latest ledger is %d, but payoutd has already seen ledger %d", resp.LatestLedger, seen)
	}
	var degraded []string
	if h.Status == "behind" {
		degraded = append(degraded, "the live rail's Stellar RPC server is behind ("+h.Error+"): payoutd books nothing from it and judges no confirm by it")
	} else if h.Status != "up" {
		degraded = append(degraded, "the live rail's Stellar RPC server is unreachable: live confirms answer 503")
	} else if resp.LatestLedgerCloseTime > 0 {
		if skew := r.Now().Sub(time.Unix(resp.LatestLedgerCloseTime, 0)).Round(time.Second); skewed(skew) {
			h.ClockSkewSeconds = int64(skew / time.Second)
			degraded = append(degraded, fmt.Sprintf("this machine's clock is %s off the Stellar network's (the latest ledger's close time): "+
				"payoutd sets time bounds on the network's clock, but its own timestamps are off; sync the clock (NTP)", skew))
		}
	}
	return h, degraded
}

// NetworkName is testnet, pubnet or the passphrase itself.
func (r *Rail) NetworkName() string {
	switch r.Passphrase {
	case network.TestNetworkPassphrase:
		return "testnet"
	case network.PublicNetworkPassphrase:
		return "pubnet"
	}
	return r.Passphrase
}

func stroopString(v int64) string { return amount.StringFromInt64(v) }
