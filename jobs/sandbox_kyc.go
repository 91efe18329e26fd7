package jobs

import (
	"context"
	"time"

	"github.com/riverqueue/river"

	"github.com/payoutd/payoutd/kyc"
	"github.com/payoutd/payoutd/store"
)

// SandboxKYCWorker plays the sandbox verification provider: each run takes
// the review steps that are due for one user's submission and snoozes until
// the next, so kyc.updated fires on time whether or not anyone reads the
// status. A step is a guarded state change, so a run repeated after a crash
// or racing a reader's own advance moves nothing twice.
type SandboxKYCWorker struct {
	river.WorkerDefaults[kyc.SandboxReviewArgs]
	DB *store.DB
}

// Work takes the due steps and snoozes until the next one.
func (w *SandboxKYCWorker) Work(ctx context.Context, job *river.Job[kyc.SandboxReviewArgs]) error {
	var wait time.Duration
	err := w.DB.WithTx(ctx, func(tx *store.Tx) (err error) {
		_, wait, err = kyc.SandboxReview(tx, job.Args.UserID)
		return err
	}, store.WithActor(kyc.SandboxActor, ""))
	if err != nil {
		return err
	}
	if wait > 0 {
		return river.JobSnooze(wait)
	}
	return nil
}
