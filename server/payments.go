package server

import (
	"net/http"
	"strings"

	"github.com/google/uuid"
	"github.com/payoutd/payoutd/input"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/taxes"
)

func (s *Server) handlePaymentInitiate(w http.ResponseWriter, c *call) error {
	var q input.Initiate
	if err := c.decode(&q); err != nil {
		return err
	}
	if err := s.useClient(c, &q); err != nil {
		return err
	}
	minor, err := q.Validate(s.db.Now())
	if err != nil {
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
		InvoiceDate: q.InvoiceDate, InvoiceAmount: q.InvoiceMinor(), ClientID: q.ClientID,
		Metadata: metadata,
	}
	return s.reply(w, c, http.StatusCreated, func(tx *store.Tx) (any, error) {
		p, inv, err := taxes.CollectsInvoice(tx, p, q.InvoiceID)
		if err != nil {
			return nil, err
		}
		created, err := payout.Initiate(tx, s.cfg.Rates, p)
		if err == nil && inv != nil {
			err = tx.Invoices().LinkPayment(created.ID, *inv)
		}
		if err != nil {
			return nil, err
		}
		return viewPayment(created), payout.NameDeposits(tx, created, q.DepositIDs)
	})
}

func (s *Server) handlePaymentConfirm(w http.ResponseWriter, c *call) error {
	var q input.Confirm
	if err := c.decode(&q); err != nil {
		return err
	}
	minor, err := q.Validate()
	if err != nil {
		return err
	}
	in := store.ConfirmInput{ID: q.ID, DestinationAddress: q.DestinationAddress, Amount: minor, Currency: q.Currency, VaultID: q.VaultID}
	in, err = payout.PrepareConfirm(c.r.Context(), s.db, s.cfg.LiveRail, c.p.Livemode, c.p.UserID, in)
	if err != nil {
		return err
	}
	return s.reply(w, c, http.StatusCreated, func(tx *store.Tx) (any, error) {
		p, err := s.confirmTx(tx, c, in)
		return viewPayment(p), err
	})
}

// requireLiveRail refuses live payouts when no live settlement adapter is
// configured.
func (s *Server) requireLiveRail(c *call) error {
	return payout.RequireLiveRail(c.p.Livemode, s.cfg.LiveRail)
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
