package server

import (
	"context"
	"fmt"
	"net/http"
	"strings"

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
	// Health is the rail's line in /readyz and what it says is degraded
	// (nothing when all is well).
	Health(ctx context.Context) (any, []string)
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

// readyVault is a quarantined vault as /readyz lists it: which, since
// when, why, and how many transactions payoutd does not know (amounts are
// for the wallet view, behind a key).
type readyVault struct {
	VaultID             string   `json:"vaultId"`
	Since               string   `json:"since"`
	Reasons             []string `json:"reasons"`
	UnknownTransactions int64    `json:"unknownTransactions"`
	LastModifiedLedger  int64    `json:"lastModifiedLedger"`
}

// readyQuarantines adds the quarantined vaults to a /readyz body.
func (s *Server) readyQuarantines(r *http.Request, body map[string]any) error {
	qs, err := s.db.Movements().Quarantines(r.Context())
	if err != nil || len(qs) == 0 {
		return err
	}
	vaults := make([]readyVault, 0, len(qs))
	ids := make([]string, 0, len(qs))
	for _, q := range qs {
		vaults = append(vaults, readyVault{VaultID: q.VaultID, Since: ts(q.CreatedAt), Reasons: q.Reasons,
			UnknownTransactions: q.UnknownTxs(), LastModifiedLedger: q.LastModified})
		ids = append(ids, q.VaultID)
	}
	body["quarantinedVaults"] = vaults
	body["degraded"] = append(asStrings(body["degraded"]), fmt.Sprintf("%d live vault(s) quarantined (%s): they sign nothing until an operator "+
		"has looked and runs payoutd vaults release VAULT_ID; payoutd check says why", len(qs), strings.Join(ids, ", ")))
	return nil
}

// readyTracks adds to a /readyz body the live vaults whose movements
// payoutd cannot vouch for: a gap in the chain's events, a balance that
// does not equal the movements recorded, or an RPC server without events.
func (s *Server) readyTracks(r *http.Request, body map[string]any) error {
	ts, err := s.db.Movements().TrackTroubles(r.Context())
	if err != nil || len(ts) == 0 {
		return err
	}
	views := make([]trackView, 0, len(ts))
	for _, t := range ts {
		views = append(views, viewTrack(t.Track, t.Currency))
		body["degraded"] = append(asStrings(body["degraded"]), "live vault "+t.VaultID+": "+describeTrack(t.Track, t.Currency))
	}
	body["vaultTracks"] = views
	return nil
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
	h, degraded := s.cfg.LiveRail.Health(r.Context())
	body["rail"] = h
	if len(degraded) > 0 {
		body["degraded"] = append(asStrings(body["degraded"]), degraded...)
	}
}

func asStrings(v any) []string {
	s, _ := v.([]string)
	return s
}
