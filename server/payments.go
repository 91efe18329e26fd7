package server

import (
	"encoding/json"
	"net/http"
	"strings"

	validation "github.com/go-ozzo/ozzo-validation/v4"
	"github.com/google/uuid"
	"github.com/payoutd/payoutd/jobs"
	"github.com/payoutd/payoutd/store"
)

type initiateRequest struct {
	Amount              json.Number `json:"amount"`
	Currency            string      `json:"currency"`
	DestinationAddress  string      `json:"destinationAddress"`
	Memo                string      `json:"memo"`
	PurposeCode         string      `json:"purposeCode"`
	InvoiceRef          string      `json:"invoiceRef"`
	CounterpartyName    string      `json:"counterpartyName"`
	CounterpartyCountry string      `json:"counterpartyCountry"`
	CounterpartyBank    string      `json:"counterpartyBank"`
}

func (q *initiateRequest) validate(minor *int64) error {
	return asFieldErrors(validation.ValidateStruct(q,
		validation.Field(&q.Amount, validation.Required, amountRule(q.Currency, minor)),
		validation.Field(&q.Currency, validation.Required, validation.Length(3, 3), isCurrency),
		validation.Field(&q.DestinationAddress, validation.Required, validation.RuneLength(56, 56).Error("must be exactly 56 characters"), isStellarAddress),
		validation.Field(&q.Memo, validation.RuneLength(0, 256)),
		validation.Field(&q.PurposeCode, isPurposeCode),
		validation.Field(&q.InvoiceRef, validation.RuneLength(0, 128)),
		validation.Field(&q.CounterpartyName, validation.RuneLength(0, 256)),
		validation.Field(&q.CounterpartyCountry, validation.Length(2, 2), isCountry),
		validation.Field(&q.CounterpartyBank, validation.RuneLength(0, 256)),
	))
}

func (s *Server) handlePaymentInitiate(w http.ResponseWriter, c *call) error {
	var q initiateRequest
	if err := decodeJSON(c.body, &q); err != nil {
		return err
	}
	var minor int64
	if err := q.validate(&minor); err != nil {
		return err
	}
	txnID := uuid.NewString()
	if c.idem != nil {
		txnID = strings.ToLower(c.idem.key)
	}
	p := store.Payment{
		UserID: c.p.UserID, Livemode: c.p.Livemode, TxnID: txnID, Amount: minor, Currency: q.Currency,
		DestinationAddress: q.DestinationAddress, Memo: q.Memo, PurposeCode: q.PurposeCode, InvoiceRef: q.InvoiceRef,
		CounterpartyName: q.CounterpartyName, CounterpartyCountry: q.CounterpartyCountry, CounterpartyBank: q.CounterpartyBank,
	}
	var out []byte
	err := s.db.WithTx(c.r.Context(), func(tx *store.Tx) error {
		if p.CrossBorder() {
			if err := requireKYC(tx, c.p.UserID); err != nil {
				return err
			}
		}
		created, err := tx.CreatePayment(p)
		if err != nil {
			return err
		}
		if out, err = marshalBody(viewPayment(created)); err != nil {
			return err
		}
		return c.saveResponse(tx, http.StatusCreated, out)
	}, c.txOpts())
	if err != nil {
		return err
	}
	writeRaw(w, http.StatusCreated, out)
	return nil
}

func requireKYC(tx *store.Tx, userID string) error {
	k, err := tx.KYCStatus(userID)
	if err != nil {
		return err
	}
	if k.Status != store.KYCApproved {
		return store.Errorf(store.ErrKYCRequired, "cross-border payouts require KYC status APPROVED (current: %s)", k.Status)
	}
	return nil
}

type confirmRequest struct {
	ID                 string      `json:"id"`
	DestinationAddress string      `json:"destinationAddress"`
	Amount             json.Number `json:"amount"`
	Currency           string      `json:"currency"`
	Memo               string      `json:"memo"`
	VaultID            string      `json:"vaultId"`
}

func (q *confirmRequest) validate(minor *int64) error {
	return asFieldErrors(validation.ValidateStruct(q,
		validation.Field(&q.ID, validation.Required, validation.RuneLength(1, 64)),
		validation.Field(&q.DestinationAddress, validation.Required, validation.RuneLength(56, 56).Error("must be exactly 56 characters")),
		validation.Field(&q.Amount, validation.Required, amountRule(q.Currency, minor)),
		validation.Field(&q.Currency, validation.Required, validation.Length(3, 3), isCurrency),
		validation.Field(&q.Memo, validation.RuneLength(0, 256)),
		validation.Field(&q.VaultID, validation.Required, validation.RuneLength(1, 64)),
	))
}

func (s *Server) handlePaymentConfirm(w http.ResponseWriter, c *call) error {
	var q confirmRequest
	if err := decodeJSON(c.body, &q); err != nil {
		return err
	}
	var minor int64
	if err := q.validate(&minor); err != nil {
		return err
	}
	out, err := s.confirm(c, store.ConfirmInput{ID: q.ID, DestinationAddress: q.DestinationAddress, Amount: minor, Currency: q.Currency, VaultID: q.VaultID, Sealer: s.cfg.Sealer})
	if err != nil {
		return err
	}
	writeRaw(w, http.StatusCreated, out)
	return nil
}

// confirm reserves the funds, moves the payment to COMPLIANCE_CHECK and
// enqueues the compliance job, all in one transaction.
func (s *Server) confirm(c *call, in store.ConfirmInput) ([]byte, error) {
	if c.p.Livemode && !s.cfg.LiveSettlement {
		return nil, store.Errorf(store.ErrLiveNotConfigured, "live payouts need a configured settlement adapter; none is configured")
	}
	var out []byte
	err := s.db.WithTx(c.r.Context(), func(tx *store.Tx) error {
		k, err := tx.KYCStatus(c.p.UserID)
		if err != nil {
			return err
		}
		in.KYCApproved = k.Status == store.KYCApproved
		p, err := tx.ConfirmPayment(c.p.UserID, in)
		if err != nil {
			return err
		}
		if err := jobs.Enqueue(tx, p.ID); err != nil {
			return err
		}
		if out, err = marshalBody(viewPayment(p)); err != nil {
			return err
		}
		return c.saveResponse(tx, http.StatusCreated, out)
	}, c.txOpts())
	return out, err
}
