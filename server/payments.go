package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	validation "github.com/go-ozzo/ozzo-validation/v4"
	"github.com/google/uuid"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/store"
)

type initiateRequest struct {
	Amount              json.Number     `json:"amount"`
	Currency            string          `json:"currency"`
	DestinationAddress  string          `json:"destinationAddress"`
	Memo                string          `json:"memo"`
	MemoType            string          `json:"memoType"`
	PurposeCode         string          `json:"purposeCode"`
	InvoiceRef          string          `json:"invoiceRef"`
	CounterpartyName    string          `json:"counterpartyName"`
	CounterpartyCountry string          `json:"counterpartyCountry"`
	CounterpartyBank    string          `json:"counterpartyBank"`
	InvoiceDate         string          `json:"invoiceDate"`
	Metadata            json.RawMessage `json:"metadata"`
}

// invoiceDateRule accepts an invoice date (YYYY-MM-DD) from a year before
// today up to today, in IST: a later date is not an invoice yet, and an
// older one is past the year within which an export under a LUT must be
// paid for.
func invoiceDateRule(now time.Time) validation.Rule {
	return validation.By(func(v any) error {
		s, _ := v.(string)
		if s == "" {
			return nil
		}
		d, err := time.ParseInLocation(time.DateOnly, s, india.IST)
		if err != nil {
			return errors.New("must be a date in the form YYYY-MM-DD")
		}
		today := india.DateOf(now)
		earliest := now.In(india.IST).AddDate(-1, 0, 0).Format(time.DateOnly)
		switch day := d.Format(time.DateOnly); {
		case day > today:
			return errors.New("must not be in the future (today is " + today + " in IST)")
		case day < earliest:
			return errors.New("must not be more than one year back (earliest " + earliest + ")")
		}
		return nil
	})
}

// memoFitsType checks a memo against an explicit memoType: an id is a
// whole number that fits in 64 bits, a text at most 28 bytes. Without a
// memoType any memo is accepted here (the live rail decides at confirm).
func memoFitsType(typ string) validation.Rule {
	return validation.By(func(v any) error {
		memo, _ := v.(string)
		if typ != payout.MemoID && typ != payout.MemoText {
			return nil
		}
		if memo == "" {
			return errors.New("is required when memoType is given")
		}
		if why := payout.CheckMemo(memo, typ); why != "" {
			return errors.New(why)
		}
		return nil
	})
}

func (q *initiateRequest) validate(minor *int64, now time.Time) error {
	return asFieldErrors(validation.ValidateStruct(q,
		validation.Field(&q.Amount, validation.Required, amountRule(q.Currency, minor)),
		validation.Field(&q.Currency, validation.Required, validation.Length(3, 3), isCurrency),
		validation.Field(&q.DestinationAddress, validation.Required, validation.RuneLength(56, 56).Error("must be exactly 56 characters"), isStellarAddress),
		validation.Field(&q.Memo, validation.RuneLength(0, 256), memoFitsType(q.MemoType)),
		validation.Field(&q.MemoType, validation.In(payout.MemoID, payout.MemoText).Error("must be id or text")),
		validation.Field(&q.PurposeCode, isPurposeCode),
		validation.Field(&q.InvoiceRef, validation.RuneLength(0, 128)),
		validation.Field(&q.CounterpartyName, validation.RuneLength(0, 256)),
		validation.Field(&q.CounterpartyCountry, validation.Length(2, 2), isCountry),
		validation.Field(&q.CounterpartyBank, validation.RuneLength(0, 256)),
		validation.Field(&q.InvoiceDate, invoiceDateRule(now)),
	))
}

func (s *Server) handlePaymentInitiate(w http.ResponseWriter, c *call) error {
	var q initiateRequest
	if err := decodeJSON(c.body, &q); err != nil {
		return err
	}
	var minor int64
	if err := q.validate(&minor, s.db.Now()); err != nil {
		return err
	}
	metadata, err := parseMetadata(q.Metadata)
	if err != nil {
		return err
	}
	p := store.Payment{
		UserID: c.p.UserID, Livemode: c.p.Livemode, TxnID: txnIDFor(c), Amount: minor, Currency: q.Currency,
		DestinationAddress: q.DestinationAddress, Memo: q.Memo, MemoType: q.MemoType, PurposeCode: q.PurposeCode, InvoiceRef: q.InvoiceRef,
		CounterpartyName: q.CounterpartyName, CounterpartyCountry: q.CounterpartyCountry, CounterpartyBank: q.CounterpartyBank,
		InvoiceDate: q.InvoiceDate,
		Metadata:    metadata,
	}
	return s.reply(w, c, http.StatusCreated, func(tx *store.Tx) (any, error) {
		created, err := payout.Initiate(tx, p)
		return viewPayment(created), err
	})
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
	if err := s.requireLiveRail(c); err != nil {
		return err
	}
	in := store.ConfirmInput{ID: q.ID, DestinationAddress: q.DestinationAddress, Amount: minor, Currency: q.Currency, VaultID: q.VaultID}
	// Read the payment and the vault on a read connection, off the single
	// writer; any failure here is left for the transaction to report.
	if p, err := s.db.FindPayment(c.r.Context(), c.p.UserID, q.ID); err == nil {
		in.Read = &p
	}
	if v, err := s.db.VaultWithKey(c.r.Context(), c.p.UserID, q.VaultID); err == nil {
		in.ReadVault = &v
	}
	if err := s.liveConfirmStep(c, &in); err != nil {
		return err
	}
	return s.reply(w, c, http.StatusCreated, func(tx *store.Tx) (any, error) {
		p, err := s.confirmTx(tx, c, in)
		return viewPayment(p), err
	})
}

// requireLiveRail refuses live payouts when no live settlement adapter is
// configured: a clear 400, never a silent success.
func (s *Server) requireLiveRail(c *call) error {
	if c.p.Livemode && s.cfg.LiveRail == nil {
		return apperr.Errorf(apperr.ErrLiveNotConfigured, "live payouts need a Stellar RPC server; start payoutd with -stellar-rpc URL (env PAYOUTD_STELLAR_RPC)")
	}
	return nil
}

// confirmTx is payout.Confirm with the server's sealer, which the vault's
// key must open for the vault to pay.
func (s *Server) confirmTx(tx *store.Tx, c *call, in store.ConfirmInput) (store.Payment, error) {
	in.Sealer = s.cfg.Sealer
	return payout.Confirm(tx, c.p.UserID, in)
}

// txnIDFor is the payment's client reference: the Idempotency-Key when one
// was sent, else a fresh UUID. Version 7, time-ordered: the
// unique (user_id, txn_id) index then grows at its end like every other
// index a payment touches, where random version 4 ids dirtied a different
// leaf page per payment in each group commit.
func txnIDFor(c *call) string {
	if c.idem != nil {
		return strings.ToLower(c.idem.key)
	}
	if id, err := uuid.NewV7(); err == nil {
		return id.String()
	}
	return uuid.NewString()
}
