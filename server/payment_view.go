package server

import (
	"encoding/json"
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
	CounterpartyName    string            `json:"counterpartyName,omitempty"`
	CounterpartyCountry string            `json:"counterpartyCountry,omitempty"`
	CounterpartyBank    string            `json:"counterpartyBank,omitempty"`
	VaultID             string            `json:"vaultId,omitempty"`
	FailedReason        string            `json:"failedReason,omitempty"`
	ReviewReason        string            `json:"reviewReason,omitempty"`
	SettlementRef       string            `json:"settlementRef,omitempty"`
	SettlementRate      json.Number       `json:"settlementRate,omitempty"`
	AmountINR           json.Number       `json:"amountInr,omitempty"`
	AmountINRPaise      *int64            `json:"amountInrPaise,omitempty"`
	FiraID              string            `json:"firaId,omitempty"`
	Metadata            map[string]string `json:"metadata,omitempty"`
	Attention           *attentionView    `json:"attention,omitempty"`
	Version             int64             `json:"version"`
	Livemode            bool              `json:"livemode"`
	CreatedAt           string            `json:"createdAt"`
	UpdatedAt           string            `json:"updatedAt"`
}

func viewPayment(p store.Payment) paymentView {
	v := paymentView{
		ID: p.ID, TxnID: p.TxnID, UserID: p.UserID, Amount: amountJSON(p.Amount, p.Currency), AmountMinor: p.Amount,
		Currency: p.Currency, Status: p.Status, Type: p.Type, DestinationAddress: p.DestinationAddress, Memo: p.Memo,
		MemoType:    payout.MemoTypeOf(p.Memo, p.MemoType),
		PurposeCode: p.PurposeCode, InvoiceRef: p.InvoiceRef, InvoiceDate: p.InvoiceDate, CounterpartyName: p.CounterpartyName,
		CounterpartyCountry: p.CounterpartyCountry, CounterpartyBank: p.CounterpartyBank, VaultID: p.VaultID,
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
	if p.Attention != "" && p.AttentionAt != nil {
		v.Attention = &attentionView{Reason: p.Attention, Since: ts(*p.AttentionAt)}
	}
	if p.InvoiceAmount > 0 {
		v.InvoiceAmount = amountJSON(p.InvoiceAmount, p.Currency)
	}
	return v
}

// attentionView is why a payout waits for a person, and since when.
type attentionView struct {
	Reason string `json:"reason"`
	Since  string `json:"since"`
}
