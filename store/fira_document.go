package store

import (
	"fmt"
	"time"

	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/money"
)

// RateTime is when the FIRA's rate was true: a live rate's recorded as-of
// time, else the settlement, when the sandbox table's rate was fixed.
func (f FIRA) RateTime() time.Time {
	if f.RateAsOf.IsZero() {
		return f.SettledAt
	}
	return f.RateAsOf
}

// Document is the advice as documents.RenderFIRA prints it: the one
// mapping the API's PDF and the console's share.
func (f FIRA) Document() documents.FIRA {
	cur, ok := money.Lookup(f.ForeignCurrency)
	if !ok {
		cur.Exponent = 2
	}
	return documents.FIRA{
		ID: f.ID, PaymentID: f.PaymentID, RemittingBank: f.RemittingBank, RemittingCountry: f.RemittingCountry,
		RemittingCountryName: india.CountryName(f.RemittingCountry), ForeignCurrency: f.ForeignCurrency,
		PurposeCode: f.PurposeCode, PurposeDescription: f.PurposeDescription, InvoiceRef: f.InvoiceRef,
		SettlementRef: f.SettlementRef, RemitterName: f.RemitterName, BeneficiaryName: f.BeneficiaryName,
		BeneficiaryPAN: f.BeneficiaryPAN, BeneficiaryAddress: f.BeneficiaryAddress, BeneficiaryEmail: f.BeneficiaryEmail,
		VaultID: f.VaultID, BeneficiaryWallet: f.BeneficiaryWallet,
		AmountForeign: f.AmountForeign, ForeignExponent: cur.Exponent, AmountINR: f.AmountINR,
		AmountINRWords: india.AmountInWordsINR(f.AmountINR), SettlementRate: f.SettlementRate, RateAsOf: f.RateAsOf,
		GeneratedAt: f.GeneratedAt, SettledAt: f.SettledAt, Livemode: f.Livemode,
		Ledger: f.Ledger, NetworkFee: fmt.Sprintf("%d.%07d XLM", f.Fee/10_000_000, f.Fee%10_000_000),
		InvoiceDate: f.InvoiceDate, GST: f.GST.document(), Deposits: depositsDocument(f.Deposits),
	}
}

// depositsDocument is each deposit as the advice cites it.
func depositsDocument(list []LinkedDeposit) []documents.FIRADeposit {
	var out []documents.FIRADeposit
	for _, d := range list {
		cur, ok := money.Lookup(d.Currency)
		if !ok {
			cur.Exponent = 2
		}
		out = append(out, documents.FIRADeposit{From: d.Counterparty, TxHash: d.TxHash, ClosedAt: d.ClosedAt,
			Amount: d.Currency + " " + money.Format(d.Amount, cur), MatchedBy: d.MatchedBy})
	}
	return out
}

// document is the GST value as the advice prints it; nil stays nil.
func (v *GSTValue) document() *documents.FIRAGST {
	if v == nil {
		return nil
	}
	return &documents.FIRAGST{TimeOfSupply: v.Day, Rate: v.Rate, RateDate: v.RateDate, Basis: v.Basis(), ValueINR: v.ValueINR}
}
