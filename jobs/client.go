package jobs

import (
	"cmp"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/store"
)

// ClientConfig tunes River for SQLite.
type ClientConfig struct {
	Workers int // concurrent jobs; 0 makes an insert-only client (CLI)
	Logger  *slog.Logger

	// Sealer opens webhook signing secrets; deliveries cannot sign without it.
	Sealer *store.Sealer
	// WebhookSchedule is the wait before each retry of a failed delivery;
	// nil means DefaultWebhookSchedule (tests use milliseconds).
	WebhookSchedule []time.Duration
	// WebhookTimeout bounds one delivery request; 0 means 10 s.
	WebhookTimeout time.Duration
	// WebhookWorkers is how many deliveries run at once; 0 means 8.
	WebhookWorkers int

	// AddWorkers registers workers of other packages (the live rail's vault
	// sync), and Periodic schedules their jobs.
	AddWorkers func(*river.Workers)
	Periodic   []*river.PeriodicJob

	// JobTimeout bounds one job run; 0 means 20 s. A killed process's
	// running jobs are run again JobTimeout + 5 s after they started.
	JobTimeout time.Duration

	// MaxAttempts is how often a failing job runs before River gives up
	// on it (a payout's job then flags the payout for a person); 0 means
	// River's 25, spread by RetryPolicy (nil: River's, attempt⁴ seconds,
	// about three weeks in all). Tests shorten both.
	MaxAttempts int
	RetryPolicy river.ClientRetryPolicy
}

// NewClient builds the River client on the store's single write connection.
// PollOnly because SQLite has no LISTEN/NOTIFY; the short poll interval and
// cooldown are what make River fast on SQLite.
func NewClient(db *store.DB, pl *payout.Pipeline, cfg ClientConfig) (*store.RiverClient, error) {
	workers := river.NewWorkers()
	river.AddWorker(workers, &payout.AdvanceWorker{P: pl})
	river.AddWorker(workers, &TaxRefreshWorker{DB: db})
	logger := cfg.Logger
	if logger == nil {
		logger = slog.Default()
	}
	river.AddWorker(workers, NewWebhookDeliverWorker(db, cfg.Sealer, cfg.WebhookSchedule, cfg.WebhookTimeout, logger))
	if cfg.AddWorkers != nil {
		cfg.AddWorkers(workers)
	}
	// Every client, insert-only ones too (a CLI review approval emits
	// events), fans events out to webhook endpoints.
	db.SetEventHook(EnqueueWebhooks)
	jobTimeout := cmp.Or(cfg.JobTimeout, 20*time.Second)
	rc := &river.Config{
		Workers:                     workers,
		PollOnly:                    true,
		FetchPollInterval:           50 * time.Millisecond,
		FetchCooldown:               time.Millisecond,
		CompletedJobRetentionPeriod: time.Hour,
		// A job still running after RescueStuckJobsAfter belonged to a
		// process that died; River's rescuer (every 30 s) makes it
		// available again. Every job here is short (a rail call has its own
		// timeout and an UNKNOWN payout snoozes), so both stay small and a
		// payout cut off by a crash resumes within about a minute.
		JobTimeout:           jobTimeout,
		RescueStuckJobsAfter: jobTimeout + 5*time.Second,
		Logger:               logger,
		MaxAttempts:          cfg.MaxAttempts,
		RetryPolicy:          cfg.RetryPolicy,
	}
	if cfg.Workers > 0 {
		rc.PeriodicJobs = cfg.Periodic
		rc.Queues = map[string]river.QueueConfig{
			river.QueueDefault: {MaxWorkers: cfg.Workers},
			WebhookQueue:       {MaxWorkers: cmp.Or(cfg.WebhookWorkers, 8)},
		}
	}
	return db.NewRiverClient(rc)
}
