package server

import (
	"net/http"

	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/taxes"
)

// form15caRule says who files the form and why this payment needs none: the
// payer of a sum to a non-resident files it (rule 37BB), and a payment here
// is the user's own receipt for services exported, never a remittance they
// make.
const form15caRule = "Form 15CA is filed by a resident who remits a sum to a non-resident (rule 37BB), before remitting. " +
	"This payment is your receipt for services you exported, so you file no Form 15CA and need no Form 15CB for it. " +
	"Part and requiresCA below say what would apply if you paid this amount to a non-resident and it were chargeable to tax in India, " +
	"judged as rule 37BB(1) judges it, on the payment with the financial year's earlier such payments " +
	"(here the year's cross-border receipts reconciled before it): "

type form15caView struct {
	Part               string `json:"part"`
	RemittanceAmount   string `json:"remittanceAmount"`
	Currency           string `json:"currency"`
	RemittanceINR      string `json:"remittanceInr"`
	RemittanceINRPaise int64  `json:"remittanceInrPaise"`
	FinancialYear      string `json:"financialYear"`
	YearAggregateINR   string `json:"yearAggregateInr"`
	YearAggregatePaise int64  `json:"yearAggregateInrPaise"`
	PurposeCode        string `json:"purposeCode"`
	InvoiceRef         string `json:"invoiceRef"`
	BeneficiaryName    string `json:"beneficiaryName"`
	BeneficiaryCountry string `json:"beneficiaryCountry"`
	BeneficiaryBank    string `json:"beneficiaryBank"`
	SettlementTxRef    string `json:"settlementTxRef"`
	RequiresCA         bool   `json:"requiresCA"`
	// Applies is false: no payment payoutd records is a remittance by the
	// user to a non-resident (form15caRule).
	Applies bool   `json:"applies"`
	Note    string `json:"note"`
}

// handleForm15CA prepares the Form 15CA details of a payout. The INR value is
// the settled value when there is one, else the current indicative rate;
// the year is the settlement's, else today's (IST).
func (s *Server) handleForm15CA(w http.ResponseWriter, c *call, id string) error {
	ctx := c.r.Context()
	p, err := s.db.FindPayment(ctx, c.p.UserID, id)
	if err != nil {
		return err
	}
	var paise int64
	if p.AmountINR != nil {
		paise = *p.AmountINR
	} else if paise, _, err = s.cfg.Rates.ToINR(p.Amount, p.Currency); err != nil {
		return err
	}
	at := s.db.Now()
	if p.SettledAt != nil {
		at = *p.SettledAt
	}
	f, fy, err := taxes.Form15CAYear(ctx, s.db, c.p.UserID, p.ID, at, paise)
	if err != nil {
		return err
	}
	cur, _ := money.Lookup(p.Currency)
	inrCur, _ := money.Lookup("INR")
	v := form15caView{
		Part: f.Part, RequiresCA: f.RequiresCA, RemittanceAmount: money.Format(p.Amount, cur), Currency: p.Currency,
		RemittanceINR: money.Format(paise, inrCur), RemittanceINRPaise: paise, FinancialYear: fy.String(),
		YearAggregateINR: money.Format(f.Aggregate, inrCur), YearAggregatePaise: f.Aggregate,
		PurposeCode: p.PurposeCode, InvoiceRef: p.InvoiceRef, BeneficiaryName: p.CounterpartyName,
		BeneficiaryCountry: p.CounterpartyCountry, BeneficiaryBank: p.CounterpartyBank, SettlementTxRef: p.SettlementRef,
		Note: form15caRule + "Part A, for an aggregate not exceeding INR 5,00,000; no Form 15CB.",
	}
	if f.RequiresCA {
		v.Note = form15caRule + "Part C, for an aggregate above INR 5,00,000, with a chartered accountant's certificate in Form 15CB " +
			"(Part B instead if an order under s.197 or s.195(2)/(3) covers it; Part D if the sum is not chargeable to tax)."
	}
	writeJSON(w, http.StatusOK, v)
	return nil
}
