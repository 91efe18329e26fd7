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
	Status       string `json:"status"` // up or unreachable
	Network      string `json:"network"`
	LatestLedger uint32 `json:"latestLedger,omitempty"`
	Error        string `json:"error,omitempty"`
}

// Health asks the RPC server for its health.
func (r *Rail) Health(ctx context.Context) (any, bool) {
	h := Health{Status: "up", Network: r.NetworkName()}
	// /readyz is polled by health checks with short deadlines of their own.
	ctx, cancel := context.WithTimeout(ctx, min(r.callTimeout(), 2*time.Second))
	defer cancel()
	c := r.rpc()
	defer c.Close()
	resp, err := c.GetHealth(ctx)
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
	return h, h.Status == "up"
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
