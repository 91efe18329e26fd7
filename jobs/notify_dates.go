package jobs

import (
	"context"
	"fmt"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/taxes"
)

// NoticeDatesArgs looks for every user's dated occasions: an advance-tax
// date 7 days away, the LUT ending with the financial year, an invoice
// under LUT nearing rule 96A's one-year limit. Each occasion makes one
// notice per user, however often the job runs.
type NoticeDatesArgs struct{}

// Kind is the stable job kind.
func (NoticeDatesArgs) Kind() string { return "notice_dates" }

// NoticeDatesInterval is how often the dated occasions are looked for.
const NoticeDatesInterval = time.Hour

// NoticeDatesJob schedules the look every interval and once at start.
func NoticeDatesJob(interval time.Duration) *river.PeriodicJob {
	return river.NewPeriodicJob(river.PeriodicInterval(interval), func() (river.JobArgs, *river.InsertOpts) {
		return NoticeDatesArgs{}, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true, ByState: []rivertype.JobState{
			rivertype.JobStateAvailable, rivertype.JobStatePending, rivertype.JobStateRunning, rivertype.JobStateRetryable, rivertype.JobStateScheduled}}}
	}, &river.PeriodicJobOpts{RunOnStart: true})
}

// NoticeDatesWorker runs notice_dates jobs.
type NoticeDatesWorker struct {
	river.WorkerDefaults[NoticeDatesArgs]
	DB   *store.DB
	Mail bool // insert each new notice's e-mail job
}

// Work writes the notices of today's occasions, one transaction per user.
func (w *NoticeDatesWorker) Work(ctx context.Context, _ *river.Job[NoticeDatesArgs]) error {
	users, err := w.DB.Users(ctx)
	if err != nil {
		return err
	}
	for _, u := range users {
		ns, err := w.occasions(ctx, u)
		if err != nil {
			return fmt.Errorf("notices of %s: %w", u.ID, err)
		}
		if len(ns) == 0 {
			continue
		}
		err = w.DB.WithTx(ctx, func(tx *store.Tx) error {
			for _, n := range ns {
				n.UserID, n.Livemode = u.ID, u.Livemode
				if err := Notify(tx, n, w.Mail); err != nil {
					return err
				}
			}
			return nil
		}, store.WithActor("system:notices", ""))
		if err != nil {
			return err
		}
	}
	return nil
}

// occasions reads what the user's dated notices need, only as far as
// today's date calls for.
func (w *NoticeDatesWorker) occasions(ctx context.Context, u store.User) ([]store.Notice, error) {
	now := w.DB.Now()
	today := india.DateOf(now)
	var out []store.Notice
	if instalmentNear(today) {
		y, err := taxes.ReadYear(ctx, w.DB, u.ID, india.FYOf(now))
		if err != nil {
			return nil, err
		}
		if n, ok := advanceTaxNotice(today, y.Paid.Instalments); ok {
			out = append(out, n)
		}
	}
	if lutEndNear(today) {
		luts, err := taxes.LUTsOf(ctx, w.DB, u.ID)
		if err != nil {
			return nil, err
		}
		if n, ok := lutNotice(today, luts); ok {
			out = append(out, n)
		}
	}
	watches, err := taxes.RealisationDue(ctx, w.DB, u.ID)
	if err != nil {
		return nil, err
	}
	for _, wt := range watches {
		out = append(out, realisationNotice(wt))
	}
	return out, nil
}
