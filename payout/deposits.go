package payout

import (
	"slices"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/store"
)

// NameDeposits ties the payout to the deposits it pays out, as its
// initiate named them: each must be one of the user's deposits, in the
// payout's currency.
func NameDeposits(tx *store.Tx, p store.Payment, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	ids = slices.Compact(slices.Sorted(slices.Values(ids)))
	found, err := tx.Vaults().UserDeposits(p.UserID, ids)
	if err != nil {
		return err
	}
	have := map[string]store.Movement{}
	for _, d := range found {
		have[d.ID] = d
	}
	for _, id := range ids {
		d, ok := have[id]
		switch {
		case !ok:
			return fieldError("depositIds", id+" is not one of your deposits")
		case d.Currency != p.Currency:
			return fieldError("depositIds", id+" is in "+d.Currency+", the payout in "+p.Currency)
		}
	}
	return tx.Vaults().LinkDeposits(p.ID, ids, store.DepositNamed)
}

func fieldError(field, why string) error {
	return &apperr.Error{Code: apperr.ErrValidation, Message: "request validation failed", Fields: map[string]string{field: why}}
}
