package input

import (
	"encoding/json"
	"errors"

	validation "github.com/go-ozzo/ozzo-validation/v4"
	"github.com/payoutd/payoutd/money"
)

// AmountFields are the rules of a payout's amount, which a request gives
// either as amount (an exact decimal in major units, "250.00") or as
// amountMinor (an integer in minor units, 25000, as Stripe-style clients
// send it), exactly one of them; *out receives it in minor units.
func AmountFields(amount *json.Number, amountMinor **int64, currency string, out *int64) []*validation.FieldRules {
	return []*validation.FieldRules{
		validation.Field(amount,
			validation.When(*amountMinor == nil, validation.Required.Error("is required: send amount (major units) or amountMinor (integer minor units)")),
			AmountRule(currency, out)),
		validation.Field(amountMinor,
			validation.When(*amount != "", validation.Nil.Error("send amount or amountMinor, not both")),
			minorRule(currency, out)),
	}
}

// minorRule checks amountMinor in the given currency into *out.
func minorRule(currency string, out *int64) validation.Rule {
	return validation.By(func(v any) error {
		p, _ := v.(*int64)
		if p == nil {
			return nil
		}
		cur, ok := money.Lookup(currency)
		if !ok {
			return errors.New("cannot be checked without a valid currency")
		}
		if err := money.CheckMinor(*p, cur); err != nil {
			return err
		}
		*out = *p
		return nil
	})
}
