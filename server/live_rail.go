package server

import (
	"context"
	"net/http"

	"github.com/payoutd/payoutd/store"
)

// LiveRail is what the HTTP layer asks of the live settlement rail (the
// Stellar rail in package stellar).
type LiveRail interface {
	// CheckConfirm refuses a payout the rail cannot carry (400) or a
	// network out of reach (ERR_RAIL_UNAVAILABLE, 503), and otherwise
	// returns the step that, first in the confirm transaction, brings the
	// vault's balance level with the chain.
	CheckConfirm(ctx context.Context, p store.Payment, v store.Vault) (func(tx *store.Tx) error, error)
	// Network is the vault's account as the network has it, for the
	// wallet view.
	Network(ctx context.Context, v store.Vault) (any, error)
	// Health is the rail's line in /readyz and whether it is up.
	Health(ctx context.Context) (any, bool)
}

// railRetryAfter is the Retry-After of a 503 for an unreachable network:
// about a ledger or two.
const railRetryAfter = "10"

// withNetwork adds the network state of each live vault to its view.
func (s *Server) withNetwork(ctx context.Context, v store.Vault, view walletView) walletView {
	if !v.Livemode || s.cfg.LiveRail == nil {
		return view
	}
	if n, err := s.cfg.LiveRail.Network(ctx, v); err == nil {
		view.Network = n
	}
	return view
}

// readyRail adds the rail's health and the live rates' freshness to a
// /readyz body.
func (s *Server) readyRail(r *http.Request, body map[string]any) {
	if s.cfg.RateStatus != nil {
		st, fresh := s.cfg.RateStatus()
		body["rates"] = st
		if !fresh {
			body["degraded"] = append(asStrings(body["degraded"]),
				"a live INR rate is missing or older than -rates-max-age: settled live payouts stay CONFIRMED without amountInr until a fresh rate arrives")
		}
	}
	if s.cfg.LiveRail == nil {
		return
	}
	s.readyBlocked(r, body)
	h, up := s.cfg.LiveRail.Health(r.Context())
	body["rail"] = h
	if !up {
		body["degraded"] = append(asStrings(body["degraded"]), "the live rail's Stellar RPC server is unreachable: live confirms answer 503")
	}
}

func asStrings(v any) []string {
	s, _ := v.([]string)
	return s
}
