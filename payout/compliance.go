package payout

import (
	"fmt"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/store"
)

// complyTx moves COMPLIANCE_CHECK to PROCESSING, MANUAL_REVIEW or FAILED.
func (pl *Pipeline) complyTx(tx *store.Tx, p *store.Payment) error {
	to, reason := pl.decide(*p)
	switch to {
	case store.StatusFailed:
		return tx.Payments().Transition(p, to, func(n *store.Payment) { n.FailedReason = reason })
	case store.StatusManualReview:
		return tx.Payments().Transition(p, to, func(n *store.Payment) { n.ReviewReason = reason })
	}
	return tx.Payments().Transition(p, store.StatusProcessing, nil)
}

// decide is the compliance rule set. A reason is a code, a colon and a
// sentence, as failedReason is: the code is what a client branches on.
func (pl *Pipeline) decide(p store.Payment) (status, reason string) {
	if pl.BlockedCountries[p.CounterpartyCountry] {
		return store.StatusFailed, fmt.Sprintf("COMPLIANCE_REJECTED: counterparty country %s is blocked", p.CounterpartyCountry)
	}
	if !p.Livemode && SandboxTrigger(p) == TriggerManualReview {
		return store.StatusManualReview, "SANDBOX_REVIEW: the amount's outcome digits are 66, the sandbox trigger for review"
	}
	if inr, _, err := pl.Rates.ToINR(p.Amount, p.Currency); err == nil && pl.ReviewThresholdINR > 0 && inr >= pl.ReviewThresholdINR {
		cur, _ := money.Lookup("INR")
		return store.StatusManualReview, fmt.Sprintf("AMOUNT_ABOVE_REVIEW_THRESHOLD: worth INR %s at the indicative rate, at or above the review threshold of INR %s",
			money.Format(inr, cur), money.Format(pl.ReviewThresholdINR, cur))
	}
	return store.StatusProcessing, ""
}

func ignoreNotFound(err error) error {
	if apperr.Code(err) == apperr.ErrPaymentNotFound {
		return nil
	}
	return err
}
