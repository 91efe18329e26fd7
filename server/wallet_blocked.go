package server

import (
	"context"
	"net/http"
	"time"

	"github.com/payoutd/payoutd/store"
)

// blockedView is a vault whose transaction in flight has no known outcome,
// as the wallet view and /readyz show it.
type blockedView struct {
	VaultID     string `json:"vaultId"`
	PaymentID   string `json:"paymentId"`
	Transaction string `json:"transaction"`
	Since       string `json:"since"`
	Reason      string `json:"reason"`
}

func viewBlocked(b store.BlockedVault) *blockedView {
	return &blockedView{VaultID: b.VaultID, PaymentID: b.PaymentID, Transaction: b.Hash, Since: ts(b.Since),
		Reason: "payout " + b.PaymentID + "'s transaction has no known outcome yet: later payouts from this vault and its " +
			"deposits wait until it is final; payoutd keeps asking the network, and the operator can settle it with " +
			"`payoutd payouts resolve " + b.PaymentID + "` once its outcome is known"}
}

// blockedVaults maps the user's blocked live vaults by id (none in sandbox:
// only the live rail has transactions in flight).
func (s *Server) blockedVaults(ctx context.Context, p *principal) (map[string]*blockedView, error) {
	if !p.Livemode {
		return nil, nil
	}
	list, err := s.db.Vaults().BlockedVaults(ctx, p.UserID)
	if err != nil {
		return nil, err
	}
	out := map[string]*blockedView{}
	for _, b := range list {
		out[b.VaultID] = viewBlocked(b)
	}
	return out, nil
}

// blockedAlarm is how long a vault may stay blocked before /readyz calls
// the service degraded: a live payout is UNKNOWN for a ledger or two after
// every send, and only one that stays so needs someone to look.
const blockedAlarm = time.Minute

// readyBlocked adds the blocked vaults to a /readyz body.
func (s *Server) readyBlocked(r *http.Request, body map[string]any) {
	list, err := s.db.Vaults().BlockedVaults(r.Context(), "")
	if err != nil || len(list) == 0 {
		return
	}
	views := make([]*blockedView, 0, len(list))
	stuck := 0
	for _, b := range list {
		views = append(views, viewBlocked(b))
		if s.db.Now().Sub(b.Since) >= blockedAlarm {
			stuck++
		}
	}
	body["blocked"] = views
	if stuck > 0 {
		body["degraded"] = append(asStrings(body["degraded"]),
			"a live vault is blocked by a payout whose transaction has no known outcome (see blocked): its later payouts and deposits wait")
	}
}
