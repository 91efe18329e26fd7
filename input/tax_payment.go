package input

import (
	"encoding/json"
	"errors"
	"regexp"
	"time"

	validation "github.com/go-ozzo/ozzo-validation/v4"
	"github.com/payoutd/payoutd/india"
)

var (
	bsrCodeRE       = regexp.MustCompile(`^[0-9]{7}$`)
	challanSerialRE = regexp.MustCompile(`^[0-9]{5}$`)
)

// SupportedFY parses a financial year "YYYY-YY" and refuses one outside
// india.SupportedYears(now); the error is the fy field's message, the same
// for ?fy=, a request body's fy and the console's year picker.
func SupportedFY(v string, now time.Time) (india.FY, error) {
	fy, err := india.ParseFY(v)
	if err != nil {
		return fy, errors.New("must be a financial year in the form YYYY-YY, e.g. 2025-26")
	}
	if first, last := india.SupportedYears(now); fy.StartYear < first.StartYear || fy.StartYear > last.StartYear {
		return fy, errors.New("financial year " + fy.String() + " is not supported: supported years are " +
			first.String() + " to " + last.String())
	}
	return fy, nil
}

// isSupportedFY accepts a financial year "YYYY-YY" in the range ?fy=
// accepts on the day now is.
func isSupportedFY(now time.Time) validation.Rule {
	return validation.By(func(v any) error {
		s, _ := v.(string)
		if s == "" {
			return nil
		}
		_, err := SupportedFY(s, now)
		return err
	})
}

// TaxPayment is a challan of advance or self-assessment tax, as POST
// /tax/payments and the console's challan form take it.
type TaxPayment struct {
	FY            string      `json:"fy"`
	Kind          string      `json:"kind"`
	Amount        json.Number `json:"amount"`
	PaidOn        string      `json:"paidOn"`
	BSRCode       string      `json:"bsrCode"`
	ChallanSerial string      `json:"challanSerial"`
	FromReserve   bool        `json:"fromReserve"`
	Note          string      `json:"note"`
}

// Validate checks each field on its own, then the date against the year
// and kind (docs/tax.md, "Tax payments"), and returns the amount in paise.
func (q *TaxPayment) Validate(now time.Time) (int64, error) {
	var paise int64
	err := validation.ValidateStruct(q,
		validation.Field(&q.FY, validation.Required, isSupportedFY(now)),
		validation.Field(&q.Kind, validation.Required, validation.In(india.PaymentAdvance, india.PaymentSelfAssessment).
			Error("must be advance or self_assessment")),
		validation.Field(&q.Amount, validation.Required, AmountRule("INR", &paise)),
		validation.Field(&q.PaidOn, validation.Required, validation.Date(time.DateOnly).Error("must be a date in the form YYYY-MM-DD")),
		validation.Field(&q.BSRCode, validation.Required, validation.Match(bsrCodeRE).Error("must be the 7-digit BSR code on the challan")),
		validation.Field(&q.ChallanSerial, validation.Required, validation.Match(challanSerialRE).Error("must be the 5-digit challan serial number")),
		validation.Field(&q.Note, validation.RuneLength(0, 512)),
	)
	var fields validation.Errors
	if err != nil && !errors.As(err, &fields) {
		return 0, err
	}
	if fields["amount"] == nil && paise%100 != 0 {
		// Challans (ITNS 280, e-Pay Tax) are paid in whole rupees, so a
		// figure with paise is a typing error, and it would break the
		// ITR-4's whole-rupee lines.
		if fields == nil {
			fields = validation.Errors{}
		}
		fields["amount"] = errors.New("must be whole rupees: tax is paid by challan in whole rupees")
	}
	if fields["fy"] == nil && fields["kind"] == nil && fields["paidOn"] == nil {
		fy, _ := india.ParseFY(q.FY)
		on, _ := time.Parse(time.DateOnly, q.PaidOn)
		if msg := india.CheckPaymentDate(fy, q.Kind, on, now); msg != "" {
			if fields == nil {
				fields = validation.Errors{}
			}
			fields["paidOn"] = errors.New(msg)
		}
	}
	if len(fields) > 0 {
		return 0, FieldErrors(fields)
	}
	return paise, nil
}
