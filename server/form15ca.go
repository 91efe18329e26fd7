package server

import (
	"net/http"

	"github.com/payoutd/payoutd/money"
)

// form15caThreshold is INR 5,00,000 in paise: at or above it, part C.
const form15caThreshold = 5_00_000_00

type form15caView struct {
	Part               string `json:"part"`
	RemittanceAmount   string `json:"remittanceAmount"`
	Currency           string `json:"currency"`
	RemittanceINR      string `json:"remittanceInr"`
	PurposeCode        string `json:"purposeCode"`
	InvoiceRef         string `json:"invoiceRef"`
	BeneficiaryName    string `json:"beneficiaryName"`
	BeneficiaryCountry string `json:"beneficiaryCountry"`
	BeneficiaryBank    string `json:"beneficiaryBank"`
	SettlementTxRef    string `json:"settlementTxRef"`
	RequiresCA         bool   `json:"requiresCA"`
	Note               string `json:"note"`
}

// handleForm15CA prepares the Form 15CA details of a payout. The INR value is
// the settled value when there is one, else the current indicative rate.
func (s *Server) handleForm15CA(w http.ResponseWriter, c *call, id string) error {
	p, err := s.db.FindPayment(c.r.Context(), c.p.UserID, id)
	if err != nil {
		return err
	}
	var inr int64
	if p.AmountINR != nil {
		inr = *p.AmountINR
	} else if inr, _, err = s.cfg.Rates.ToINR(p.Amount, p.Currency); err != nil {
		return err
	}
	cur, _ := money.Lookup(p.Currency)
	inrCur, _ := money.Lookup("INR")
	v := form15caView{
		Part: "A", RemittanceAmount: money.Format(p.Amount, cur), Currency: p.Currency, RemittanceINR: money.Format(inr, inrCur),
		PurposeCode: p.PurposeCode, InvoiceRef: p.InvoiceRef, BeneficiaryName: p.CounterpartyName,
		BeneficiaryCountry: p.CounterpartyCountry, BeneficiaryBank: p.CounterpartyBank, SettlementTxRef: p.SettlementRef,
		Note: "Part A: remittance below INR 5,00,000. File Form 15CA online before remitting; Form 15CA/15CB apply to payments to non-residents that are chargeable to tax (rule 37BB).",
	}
	if inr >= form15caThreshold {
		v.Part, v.RequiresCA = "C", true
		v.Note = "Part C: remittance of INR 5,00,000 or above. A chartered accountant's certificate in Form 15CB is needed before filing Form 15CA (rule 37BB)."
	}
	writeJSON(w, http.StatusOK, v)
	return nil
}
