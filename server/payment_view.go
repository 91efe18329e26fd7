package server

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/wire"
)

// ts and amountJSON are the wire formats, short for the many views.
func ts(t time.Time) string { return wire.Time(t) }

func amountJSON(minor int64, currency string) json.Number { return wire.Amount(minor, currency) }

type paymentView struct {
	ID                  string            `json:"id"`
	TxnID               string            `json:"txnId"`
	UserID              string            `json:"userId"`
	Amount              json.Number       `json:"amount"`
	AmountMinor         int64             `json:"amountMinor"`
	Currency            string            `json:"currency"`
	Status              string            `json:"status"`
	Type                string            `json:"type"`
	DestinationAddress  string            `json:"destinationAddress"`
	Memo                string            `json:"memo,omitempty"`
	MemoType            string            `json:"memoType,omitempty"`
	PurposeCode         string            `json:"purposeCode,omitempty"`
	InvoiceRef          string            `json:"invoiceRef,omitempty"`
	InvoiceDate         string            `json:"invoiceDate,omitempty"`
	InvoiceAmount       json.Number       `json:"invoiceAmount,omitempty"`
	InvoiceAmountMinor  int64             `json:"invoiceAmountMinor,omitempty"`
	CounterpartyName    string            `json:"counterpartyName,omitempty"`
	CounterpartyCountry string            `json:"counterpartyCountry,omitempty"`
	CounterpartyBank    string            `json:"counterpartyBank,omitempty"`
	ClientID            string            `json:"clientId,omitempty"`
	VaultID             string            `json:"vaultId,omitempty"`
	FailedReason        string            `json:"failedReason,omitempty"`
	ReviewReason        string            `json:"reviewReason,omitempty"`
	SettlementRef       string            `json:"settlementRef,omitempty"`
	SettlementRate      json.Number       `json:"settlementRate,omitempty"`
	AmountINR           json.Number       `json:"amountInr,omitempty"`
	AmountINRPaise      *int64            `json:"amountInrPaise,omitempty"`
	FiraID              string            `json:"firaId,omitempty"`
	Metadata            map[string]string `json:"metadata,omitempty"`
	// SettledAt is when the money moved: for a live payout the close time
	// of the Stellar ledger that applied it, which Network describes.
	Attention *attentionView `json:"attention,omitempty"`
	SettledAt string         `json:"settledAt,omitempty"`
	Network   *networkTxView `json:"network,omitempty"`
	Version   int64          `json:"version"`
	Livemode  bool           `json:"livemode"`
	CreatedAt string         `json:"createdAt"`
	UpdatedAt string         `json:"updatedAt"`
}

// networkTxView is the Stellar transaction a live payout settled (or
// failed) with, as the ledger that applied it records it.
type networkTxView struct {
	TransactionHash string `json:"transactionHash"`
	Ledger          int64  `json:"ledger"`
	LedgerClosedAt  string `json:"ledgerClosedAt,omitempty"`
	FeeChargedXLM   string `json:"feeChargedXlm"`
}

// viewNetworkTx renders an envelope that was in a ledger; nil otherwise.
func viewNetworkTx(hash string, ledger, fee int64, closedAt time.Time) *networkTxView {
	if ledger == 0 {
		return nil
	}
	v := &networkTxView{TransactionHash: hash, Ledger: ledger, FeeChargedXLM: xlm(fee)}
	if !closedAt.IsZero() {
		v.LedgerClosedAt = ts(closedAt)
	}
	return v
}

// xlm renders stroops as XLM with Stellar's seven decimals.
func xlm(stroops int64) string { return fmt.Sprintf("%d.%07d", stroops/10_000_000, stroops%10_000_000) }

// viewPayments renders payments with the Stellar transaction of each live
// one that reached a ledger (one read for them all).
func (s *Server) viewPayments(ctx context.Context, ps []store.Payment) ([]paymentView, error) {
	var refs []string
	for _, p := range ps {
		if p.Livemode && p.SettlementRef != "" {
			refs = append(refs, p.SettlementRef)
		}
	}
	subs, err := s.db.Chain().SubmissionsByHash(ctx, refs)
	if err != nil {
		return nil, err
	}
	out := make([]paymentView, 0, len(ps))
	for _, p := range ps {
		v := viewPayment(p)
		if sub, ok := subs[p.SettlementRef]; ok && p.Livemode {
			v.Network = viewNetworkTx(sub.Hash, sub.Ledger, sub.Fee, sub.ClosedAt)
		}
		out = append(out, v)
	}
	return out, nil
}

func viewPayment(p store.Payment) paymentView {
	v := paymentView{
		ID: p.ID, TxnID: p.TxnID, UserID: p.UserID, Amount: amountJSON(p.Amount, p.Currency), AmountMinor: p.Amount,
		Currency: p.Currency, Status: p.Status, Type: p.Type, DestinationAddress: p.DestinationAddress, Memo: p.Memo,
		MemoType:    payout.MemoTypeOf(p.Memo, p.MemoType),
		PurposeCode: p.PurposeCode, InvoiceRef: p.InvoiceRef, InvoiceDate: p.InvoiceDate, CounterpartyName: p.CounterpartyName,
		CounterpartyCountry: p.CounterpartyCountry, CounterpartyBank: p.CounterpartyBank, ClientID: p.ClientID, VaultID: p.VaultID,
		SettlementRef: p.SettlementRef, SettlementRate: json.Number(p.SettlementRate), FiraID: p.FiraID, Metadata: p.Metadata,
		Version: p.Version, Livemode: p.Livemode, CreatedAt: ts(p.CreatedAt), UpdatedAt: ts(p.UpdatedAt),
	}
	switch p.Status {
	case store.StatusFailed:
		v.FailedReason = p.FailedReason
	case store.StatusManualReview:
		v.ReviewReason = p.ReviewReason
	}
	if p.AmountINR != nil {
		v.AmountINR, v.AmountINRPaise = inr(*p.AmountINR), p.AmountINR
	}
	if p.SettledAt != nil {
		v.SettledAt = ts(*p.SettledAt)
	}
	if p.Attention != "" && p.AttentionAt != nil {
		v.Attention = &attentionView{Reason: p.Attention, Since: ts(*p.AttentionAt)}
	}
	if p.InvoiceAmount > 0 {
		v.InvoiceAmount, v.InvoiceAmountMinor = amountJSON(p.InvoiceAmount, p.Currency), p.InvoiceAmount
	}
	return v
}

// attentionView is why a payout waits for a person, and since when.
type attentionView struct {
	Reason string `json:"reason"`
	Since  string `json:"since"`
}
