package jobs

import (
	"context"

	"github.com/riverqueue/river"

	"github.com/payoutd/payoutd/store"
)

// resolveUnknown asks the rail again about an UNKNOWN payout; while it still
// does not know, the job snoozes. Funds stay reserved meanwhile: never lost.
func (pl *Pipeline) resolveUnknown(ctx context.Context, p store.Payment) error {
	out, err := pl.rail(p).Status(ctx, p)
	if err != nil {
		return err
	}
	if out.State == Unknown {
		return river.JobSnooze(pl.UnknownPoll)
	}
	return pl.DB.WithTx(ctx, func(tx *store.Tx) error {
		cur, err := tx.LoadPayment(p.ID)
		if err != nil || cur.Status != store.StatusUnknown {
			return err
		}
		return pl.apply(tx, &cur, out)
	}, store.WithActor("system:reconciliation", ""))
}
