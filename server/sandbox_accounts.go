package server

import (
	"encoding/json"
	"net/http"

	validation "github.com/go-ozzo/ozzo-validation/v4"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/kyc"
	"github.com/payoutd/payoutd/store"
)

var errSandboxOnly = apperr.Errorf(apperr.ErrSandboxOnly, "this endpoint works with sandbox keys only")

type sandboxKYCRequest struct {
	Reason string `json:"reason"`
}

// handleSandboxKYC walks the caller's KYC through every remaining state to
// APPROVED or REJECTED, each move audited and emitted as the
// provider's would be. The body is optional: {"reason": …} for a rejection.
func (s *Server) handleSandboxKYC(approve bool) apiHandler {
	return func(w http.ResponseWriter, c *call) error {
		if c.p.Livemode {
			return errSandboxOnly
		}
		var q sandboxKYCRequest
		if err := c.decodeOptional(&q); err != nil {
			return err
		}
		err := asFieldErrors(validation.ValidateStruct(&q, validation.Field(&q.Reason, validation.RuneLength(0, 256))))
		if err != nil {
			return err
		}
		if approve && q.Reason != "" {
			return fieldError("reason", "is only taken by /sandbox/kyc/reject")
		}
		var k store.KYC
		err = s.db.WithTx(c.r.Context(), func(tx *store.Tx) (err error) {
			k, err = kyc.SandboxWalk(tx, c.p.UserID, approve, q.Reason)
			return err
		}, c.txOpts())
		if err != nil {
			return err
		}
		writeJSON(w, http.StatusOK, viewKYC(k))
		return nil
	}
}

type fundRequest struct {
	Amount json.Number `json:"amount"`
}

// handleSandboxFund adds money to one of the caller's sandbox vaults,
// parsed with the vault currency's money.Parse rules.
func (s *Server) handleSandboxFund(w http.ResponseWriter, c *call) error {
	if c.p.Livemode {
		return errSandboxOnly
	}
	var q fundRequest
	if err := c.decode(&q); err != nil {
		return err
	}
	ctx := c.r.Context()
	v, err := s.db.Vaults().FindVault(ctx, c.p.UserID, c.r.PathValue("id"))
	if err != nil {
		return err
	}
	var minor int64
	err = asFieldErrors(validation.ValidateStruct(&q, validation.Field(&q.Amount, validation.Required, amountRule(v.Currency, &minor))))
	if err != nil {
		return err
	}
	keys, err := s.usableKeys(c)
	if err != nil {
		return err
	}
	return s.reply(w, c, http.StatusOK, func(tx *store.Tx) (any, error) {
		v, err := tx.Vaults().FundVault(c.p.UserID, v.ID, minor)
		return map[string]any{"success": true, "wallet": viewWallet(v, keys[v.ID])}, err
	})
}
