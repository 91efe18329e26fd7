package payout

import (
	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/store"
)

// MaxPayoutINRPaise is the most one payout may be worth, at the
// indicative INR rate, when it is initiated: ₹1 lakh crore (10^14 paise).
// Every INR figure of one payout (its value, its FIRA, its Form 15CA)
// then stays below 2^53 paise, the largest integer a JSON parser that
// reads numbers as doubles keeps exact, even had the rate risen
// ninety-fold by settlement.
const MaxPayoutINRPaise = 100_000_000_000_000

// checkValueCap refuses a payout worth more than MaxPayoutINRPaise, or one
// whose INR value cannot be bounded because its currency has no rate.
func checkValueCap(r rates.Table, p store.Payment) error {
	inr, _, err := r.ToINR(p.Amount, p.Currency)
	if err != nil {
		return err
	}
	if inr > MaxPayoutINRPaise {
		cur, _ := money.Lookup("INR")
		return &apperr.Error{Code: apperr.ErrValidation, Message: "request validation failed", Fields: map[string]string{
			"amount": "is worth INR " + money.Format(inr, cur) + " at the indicative rate; one payout may be worth at most INR " +
				money.Format(MaxPayoutINRPaise, cur)}}
	}
	return nil
}
