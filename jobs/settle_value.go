package jobs

import (
	"fmt"

	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/store"
)

// settlementValue is the payout's INR value at the rate fixed at settlement,
// rounded half-up to the paisa (DESIGN.md §5).
func (pl *Pipeline) settlementValue(p *store.Payment, out Outcome) (int64, string, error) {
	cur, ok := money.Lookup(p.Currency)
	if !ok || out.Rate.IsZero() {
		return 0, "", fmt.Errorf("settlement of %s: no rate for %s", p.ID, p.Currency)
	}
	inr, _ := money.Lookup("INR")
	v, err := money.ConvertChecked(p.Amount, cur, out.Rate, inr)
	if err != nil {
		return 0, "", fmt.Errorf("settlement of %s: %w", p.ID, err)
	}
	return v, out.Rate.String(), nil
}
