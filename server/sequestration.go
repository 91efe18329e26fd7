package server

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/payoutd/payoutd/input"
	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/store"
)

// bpJSON renders hundredths of a percent as an exact JSON number (12.5).
func bpJSON(bp int64) json.Number {
	inr, _ := money.Lookup("INR") // two decimals, like a percentage with 2 dp
	return json.Number(money.Format(bp, inr))
}

func (s *Server) handleSequestrationGet(w http.ResponseWriter, c *call) error {
	ctx := c.r.Context()
	pol, err := s.db.Payments().SequestrationPolicy(ctx, c.p.UserID)
	if err != nil {
		return err
	}
	reserve, err := s.db.Ledger().UserLedgerAccount(ctx, c.p.UserID, store.AccountTaxReserve, "INR")
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"enabled": pol.Enabled, "reserveBalance": inr(reserve.Balance), "reserveBalancePaise": reserve.Balance, "currency": "INR",
		"policy": map[string]any{"rate": bpJSON(pol.RateBP), "trigger": pol.Trigger, "targetAccount": reserve.ID},
		"asOf":   ts(time.Now()),
	})
	return nil
}

type policyRequest struct {
	Enabled *bool       `json:"enabled"`
	Rate    json.Number `json:"rate"`
	Trigger *string     `json:"trigger"`
}

func (s *Server) handleSequestrationPolicy(w http.ResponseWriter, c *call) error {
	var q policyRequest
	if err := c.decode(&q); err != nil {
		return err
	}
	rate, err := input.ReservePolicy{Enabled: q.Enabled, Rate: string(q.Rate), Trigger: q.Trigger}.Validate()
	if err != nil {
		return err
	}
	var pol store.SequestrationPolicy
	err = s.db.WithTx(c.r.Context(), func(tx *store.Tx) (err error) {
		pol, err = tx.Payments().SetSequestrationPolicy(c.p.UserID, c.p.Livemode, *q.Enabled, rate, *q.Trigger)
		return err
	}, c.txOpts())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, map[string]any{"enabled": pol.Enabled, "rate": bpJSON(pol.RateBP), "trigger": pol.Trigger, "updatedAt": ts(pol.UpdatedAt)})
	return nil
}
