package app

import (
	"cmp"
	"context"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/payoutd/payoutd/jobs"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/stellar"
	"github.com/payoutd/payoutd/store"
)

// riverConfig registers every worker and tunes River for SQLite. A job
// inserted by this process wakes the fetcher at once (River's
// notifications, carried in memory: store/river_notify.go); the poll
// finds the jobs another process (the CLI) inserted and short snoozes
// coming due, and each poll is a statement on the single writer.
func riverConfig(db *store.DB, a *App, c Config, log *slog.Logger) *river.Config {
	workers := river.NewWorkers()
	river.AddWorker(workers, &payout.AdvanceWorker{P: a.Pipeline})
	river.AddWorker(workers, &jobs.TaxRefreshWorker{DB: db})
	river.AddWorker(workers, &jobs.SandboxKYCWorker{DB: db})
	river.AddWorker(workers, &jobs.IdempotencyPurgeWorker{DB: db})
	river.AddWorker(workers, &jobs.RealisationWatchWorker{DB: db})
	deliver := jobs.NewWebhookDeliverWorker(db, c.Sealer, c.WebhookSchedule, c.WebhookTimeout, log)
	if c.SandboxPrivateWebhooks {
		deliver.AllowSandboxPrivate()
	}
	if c.Metrics != nil {
		deliver.Observe = c.Metrics.WebhookDelivery
	}
	river.AddWorker(workers, deliver)
	river.AddWorker(workers, &jobs.NoticeDatesWorker{DB: db, Mail: c.SMTP != nil})
	if c.SMTP != nil {
		river.AddWorker(workers, &jobs.NoticeMailWorker{DB: db, SMTP: *c.SMTP, BaseURL: c.BaseURL, Log: log})
	}
	periodic := []*river.PeriodicJob{jobs.IdempotencyPurgeJob(jobs.IdempotencyPurgeInterval),
		jobs.RealisationWatchJob(jobs.RealisationWatchInterval), jobs.NoticeDatesJob(cmp.Or(c.NoticeDates, jobs.NoticeDatesInterval))}
	if a.Live != nil {
		river.AddWorker(workers, &stellar.SyncWorker{Rail: a.Live})
		if c.StellarSync > 0 {
			periodic = append(periodic, stellar.SyncJob(c.StellarSync))
		}
	}
	jobTimeout := cmp.Or(c.JobTimeout, 20*time.Second)
	rc := &river.Config{
		Workers:                     workers,
		FetchPollInterval:           cmp.Or(c.FetchPoll, fetchPoll),
		FetchCooldown:               time.Millisecond,
		CompletedJobRetentionPeriod: time.Hour,
		// A job still running after RescueStuckJobsAfter belonged to a
		// process that died; River's rescuer (every 30 s) makes it
		// available again. Every job here is short (a rail call has its own
		// timeout and an UNKNOWN payout snoozes), so both stay small and a
		// payout cut off by a crash resumes within about a minute. A
		// worker with a longer timeout of its own (a webhook delivery) is
		// not rescued, so not run twice, before that timeout has passed:
		// River's rescuer checks it (TestRescueWaitsForAJobsOwnTimeout).
		JobTimeout:           jobTimeout,
		RescueStuckJobsAfter: jobTimeout + 5*time.Second,
		Logger:               quiet(log),
		MaxAttempts:          c.MaxAttempts,
		RetryPolicy:          c.RetryPolicy,
	}
	if c.Workers > 0 {
		rc.PeriodicJobs = periodic
		rc.Queues = map[string]river.QueueConfig{
			river.QueueDefault: {MaxWorkers: c.Workers},
			jobs.WebhookQueue:  {MaxWorkers: cmp.Or(c.WebhookWorkers, 8)},
		}
		if c.SMTP != nil {
			rc.Queues[jobs.MailQueue] = river.QueueConfig{MaxWorkers: 2}
		}
	}
	return rc
}

// fetchPoll is how often River looks for jobs nobody told it of.
const fetchPoll = 250 * time.Millisecond

// quiet keeps River's own logging to warnings and above.
func quiet(log *slog.Logger) *slog.Logger {
	return slog.New(levelFloor{log.Handler(), slog.LevelWarn})
}

type levelFloor struct {
	slog.Handler
	min slog.Level
}

func (l levelFloor) Enabled(ctx context.Context, lvl slog.Level) bool {
	return lvl >= l.min && l.Handler.Enabled(ctx, lvl)
}
