package input

import (
	"encoding/json"
	"errors"
	"time"

	validation "github.com/go-ozzo/ozzo-validation/v4"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/payout"
)

// Initiate is what POST /payments/initiate and the console's new-payout
// form take. Metadata is the API's alone (server checks it).
type Initiate struct {
	Amount              json.Number `json:"amount"`
	AmountMinor         *int64      `json:"amountMinor"`
	Currency            string      `json:"currency"`
	DestinationAddress  string      `json:"destinationAddress"`
	Memo                string      `json:"memo"`
	MemoType            string      `json:"memoType"`
	PurposeCode         string      `json:"purposeCode"`
	InvoiceRef          string      `json:"invoiceRef"`
	CounterpartyName    string      `json:"counterpartyName"`
	CounterpartyCountry string      `json:"counterpartyCountry"`
	CounterpartyBank    string      `json:"counterpartyBank"`
	InvoiceDate         string      `json:"invoiceDate"`
	// ClientID names a client on record (UseClient fills what the payout
	// leaves out from it).
	ClientID string `json:"clientId"`
	// InvoiceAmount is the invoice's value in the payment's currency when
	// it differs from the amount paid: GST values the invoice, not the
	// payment (docs/tax.md). Validate parses it into InvoiceMinor.
	InvoiceAmount json.Number `json:"invoiceAmount"`
	invoiceMinor  int64
	Metadata      json.RawMessage `json:"metadata"`
	// DepositIDs name the deposits the payout pays out (its FIRA cites
	// them as the inward remittance).
	DepositIDs []string `json:"depositIds"`
	// InvoiceID names the payoutd invoice (inv_…) the payout collects: its
	// number becomes invoiceRef and its date invoiceDate (docs/tax.md,
	// "Invoices").
	InvoiceID string `json:"invoiceId"`
}

// Length rules of the payout routes' fields, built once: ozzo builds a
// length rule's error (its message and parameters) each time Length or
// RuneLength is called, a good part of an initiate request's validation.
var (
	lenCurrency = validation.Length(3, 3)
	lenCountry  = validation.Length(2, 2)
	lenAddress  = validation.RuneLength(56, 56).Error("must be exactly 56 characters")
	lenRef      = validation.RuneLength(0, 128)
	lenText     = validation.RuneLength(0, 256)
	lenOptID    = validation.RuneLength(0, 64)
	lenID       = validation.RuneLength(1, 64)
	maxDeposits = validation.Length(0, 20)
	remitter    = validation.Required.Error("is required for a cross-border payout: the FIRA names the client as remitter")
)

// depositIDRule accepts a deposit id (dep_…).
var depositIDRule = validation.By(func(v any) error {
	s, _ := v.(string)
	if len(s) < 5 || len(s) > 64 || s[:4] != "dep_" {
		return errors.New("must be a deposit id (dep_…)")
	}
	return nil
})

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

// Validate checks the payout's fields and returns its amount in minor units.
func (q *Initiate) Validate(now time.Time) (int64, error) {
	var minor int64
	return minor, FieldErrors(validation.ValidateStruct(q, append(AmountFields(&q.Amount, &q.AmountMinor, q.Currency, &minor),
		validation.Field(&q.Currency, validation.Required, lenCurrency, IsCurrency),
		validation.Field(&q.DestinationAddress, validation.Required, lenAddress, IsStellarAddress),
		validation.Field(&q.Memo, lenText, memoFitsType(q.MemoType)),
		validation.Field(&q.MemoType, validation.In(payout.MemoID, payout.MemoText).Error("must be id or text")),
		validation.Field(&q.PurposeCode, IsPurposeCode),
		validation.Field(&q.InvoiceRef, lenRef),
		validation.Field(&q.InvoiceID, lenOptID),
		validation.Field(&q.CounterpartyName, lenText, validation.When(q.crossBorder(), remitter)),
		validation.Field(&q.CounterpartyCountry, lenCountry, IsCountry),
		validation.Field(&q.CounterpartyBank, lenText),
		validation.Field(&q.InvoiceDate, invoiceDateRule(now)),
		validation.Field(&q.InvoiceAmount, AmountRule(q.Currency, &q.invoiceMinor)),
		validation.Field(&q.DepositIDs, maxDeposits, validation.Each(depositIDRule)),
		validation.Field(&q.ClientID, lenOptID),
	)...))
}

// crossBorder: the client is abroad (store.Payment.CrossBorder's rule).
func (q *Initiate) crossBorder() bool {
	return q.CounterpartyCountry != "" && q.CounterpartyCountry != "IN"
}

// InvoiceMinor is the validated invoice amount in minor units, 0 when none
// was given.
func (q *Initiate) InvoiceMinor() int64 { return q.invoiceMinor }

// Confirm is what POST /payments/confirm and the console's confirmation
// step take.
type Confirm struct {
	ID                 string      `json:"id"`
	DestinationAddress string      `json:"destinationAddress"`
	Amount             json.Number `json:"amount"`
	AmountMinor        *int64      `json:"amountMinor"`
	Currency           string      `json:"currency"`
	Memo               string      `json:"memo"`
	VaultID            string      `json:"vaultId"`
}

// Validate checks the confirmation's fields and returns its amount in minor
// units.
func (q *Confirm) Validate() (int64, error) {
	var minor int64
	return minor, FieldErrors(validation.ValidateStruct(q, append(AmountFields(&q.Amount, &q.AmountMinor, q.Currency, &minor),
		validation.Field(&q.ID, validation.Required, lenID),
		validation.Field(&q.DestinationAddress, validation.Required, lenAddress),
		validation.Field(&q.Currency, validation.Required, lenCurrency, IsCurrency),
		validation.Field(&q.Memo, lenText),
		validation.Field(&q.VaultID, validation.Required, lenID),
	)...))
}

// Review is a decision on a payout in MANUAL_REVIEW.
type Review struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
}

// Validate checks the decision and its reason.
func (q *Review) Validate() error {
	return FieldErrors(validation.ValidateStruct(q,
		validation.Field(&q.Decision, validation.Required, validation.In("approve", "reject")),
		validation.Field(&q.Reason, validation.RuneLength(0, 512)),
	))
}
