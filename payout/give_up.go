package payout

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river/rivertype"

	"github.com/payoutd/payoutd/store"
)

// AttentionJobFailed starts the attention reason of a payout whose job
// failed on every attempt.
const AttentionJobFailed = "JOB_FAILED"

// maxErrorText bounds the last error quoted in an attention reason.
const maxErrorText = 400

// giveUp is a payout job's last attempt failing. River discards the job
// next, which would leave the payout owing a step, its funds reserved, and
// nothing to move it or tell anyone: instead the payout is flagged with
// the reason, where its view, `payoutd payouts list` and `payoutd check`
// show it, until a person sets it going again (Resume).
func (pl *Pipeline) giveUp(ctx context.Context, id string, attempts int, cause error) {
	// The job's own context may be what ran out.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	p, err := pl.DB.Payments().LoadPayment(ctx, id)
	if err != nil || !store.OwesStep(p.Status) {
		return
	}
	msg := cause.Error()
	if len(msg) > maxErrorText {
		msg = msg[:maxErrorText] + "…"
	}
	reason := fmt.Sprintf("%s: the payout's job failed on each of its %d attempts and stopped; its funds stay reserved. "+
		"Last error: %s. Fix the cause, then run `payoutd payouts retry %s`", AttentionJobFailed, attempts, msg, id)
	err = pl.DB.WithTx(ctx, func(tx *store.Tx) error {
		_, err := tx.Payments().FlagPayment(id, p.Status, reason)
		return err
	}, store.WithActor("system:pipeline", ""))
	if err != nil {
		pl.Log.Error("could not flag a payout whose job gave up; payoutd check lists it", "payment", id, "error", err.Error())
		return
	}
	pl.Log.Error("a payout's job failed on every attempt; it waits for a person", "payment", id, "status", p.Status, "error", msg)
}

func isSnooze(err error) bool {
	var s *rivertype.JobSnoozeError
	return errors.As(err, &s)
}
