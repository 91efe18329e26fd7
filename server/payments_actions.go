package server

import (
	"encoding/json"
	"net/http"

	validation "github.com/go-ozzo/ozzo-validation/v4"
	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/input"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/store"
)

// handlePaymentRetry moves a FAILED or PENDING payout back to PROCESSING.
func (s *Server) handlePaymentRetry(w http.ResponseWriter, c *call) error {
	if err := c.noBody(); err != nil {
		return err
	}
	return s.reply(w, c, http.StatusOK, func(tx *store.Tx) (any, error) {
		p, err := payout.Retry(tx, c.p.UserID, c.r.PathValue("id"))
		return viewPayment(p), err
	})
}

// handlePaymentCancel ends an INITIATED payout (FAILED, CANCELLED).
func (s *Server) handlePaymentCancel(w http.ResponseWriter, c *call) error {
	if err := c.noBody(); err != nil {
		return err
	}
	return s.reply(w, c, http.StatusOK, func(tx *store.Tx) (any, error) {
		p, err := payout.Cancel(tx, c.p.UserID, c.r.PathValue("id"))
		return viewPayment(p), err
	})
}

// handleSandboxReview resolves MANUAL_REVIEW in sandbox.
func (s *Server) handleSandboxReview(w http.ResponseWriter, c *call) error {
	if c.p.Livemode {
		return apperr.Errorf(apperr.ErrSandboxOnly, "this endpoint works with sandbox keys only")
	}
	var q input.Review
	if err := c.decode(&q); err != nil {
		return err
	}
	err := q.Validate()
	if err != nil {
		return err
	}
	var p store.Payment
	err = s.db.WithTx(c.r.Context(), func(tx *store.Tx) (err error) {
		p, err = payout.Review(tx, c.p.UserID, c.r.PathValue("id"), q.Decision == "approve", q.Reason)
		return err
	}, c.txOpts())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, viewPayment(p))
	return nil
}

type quickStartRequest struct {
	Amount      json.Number `json:"amount"`
	AmountMinor *int64      `json:"amountMinor"`
	Currency    string      `json:"currency"`
	Recipient   string      `json:"recipient"`
	Reference   string      `json:"reference"`
}

// handleQuickStart is initiate + confirm on the caller's vault in the
// payment's currency (the default vault first), in one call.
func (s *Server) handleQuickStart(w http.ResponseWriter, c *call) error {
	var q quickStartRequest
	if err := c.decode(&q); err != nil {
		return err
	}
	var minor int64
	err := asFieldErrors(validation.ValidateStruct(&q, append(input.AmountFields(&q.Amount, &q.AmountMinor, q.Currency, &minor),
		validation.Field(&q.Currency, validation.Required, validation.Length(3, 3), isCurrency),
		validation.Field(&q.Recipient, validation.Required, validation.RuneLength(56, 56).Error("must be exactly 56 characters"), isStellarAddress),
		validation.Field(&q.Reference, validation.RuneLength(0, 128)),
	)...))
	if err != nil {
		return err
	}
	if err := s.requireLiveRail(c); err != nil {
		return err
	}
	return s.reply(w, c, http.StatusCreated, func(tx *store.Tx) (any, error) {
		v, err := tx.Vaults().VaultForCurrency(c.p.UserID, q.Currency)
		if err != nil {
			return nil, err
		}
		p, err := payout.Initiate(tx, s.cfg.Rates, store.Payment{UserID: c.p.UserID, Livemode: c.p.Livemode, TxnID: txnIDFor(c),
			Amount: minor, Currency: q.Currency, DestinationAddress: q.Recipient, InvoiceRef: q.Reference})
		if err != nil {
			return nil, err
		}
		p, err = s.confirmTx(tx, c, store.ConfirmInput{ID: p.ID, DestinationAddress: p.DestinationAddress, Amount: p.Amount,
			Currency: p.Currency, VaultID: v.ID})
		return viewPayment(p), err
	})
}
