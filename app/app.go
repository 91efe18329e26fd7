// Package app wires one payoutd process: the database, the payout
// pipeline, River's client with every worker, and the event hook that fans
// each event out to webhook deliveries. serve, every CLI command, the bench
// and every test harness get them from Open, and nowhere else is a River
// client built, so no process writes events or jobs half-wired.
package app

import (
	"cmp"
	"context"
	"errors"
	"io"
	"log/slog"
	"time"

	"github.com/riverqueue/river"

	"github.com/payoutd/payoutd/jobs"
	"github.com/payoutd/payoutd/metrics"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/stellar"
	"github.com/payoutd/payoutd/store"
)

// Config is what a process needs wired; the zero value of each field but
// Path and Schema is a working default.
type Config struct {
	// Path is the database file, created if missing and migrated to Schema.
	Path, Schema string
	// Sealer opens vault, token and webhook keys (nil: the process opens none).
	Sealer *store.Sealer
	Log    *slog.Logger // nil: discarded

	// Workers is how many payout jobs run at once once Start is called; 0
	// makes an insert-only client, for the CLI: a running server's workers
	// run the jobs it queues.
	Workers int
	// JobTimeout bounds one job run (0: 20 s). A killed process's running
	// jobs run again when the next process starts (Start); a job of this
	// process still running JobTimeout + 5 s after it started is taken for
	// lost and run again by River's rescuer.
	JobTimeout time.Duration
	// MaxAttempts is how often a failing job runs before River gives up on
	// it (a payout's job then flags the payout for a person); 0 means
	// River's 25, spread by RetryPolicy (nil: River's, attempt⁴ seconds,
	// about three weeks in all). Tests shorten both.
	MaxAttempts int
	RetryPolicy river.ClientRetryPolicy
	// FetchPoll is how often River looks for jobs no notification told it
	// of (0: 250 ms): those another process inserted, and short snoozes.
	// A job this process inserts is fetched at once.
	FetchPoll time.Duration

	// Rates is the sandbox's INR rate table (nil: rates.Default()).
	Rates rates.Table
	// SandboxUnknownWindow is how long a sandbox .99 payout stays UNKNOWN
	// (0: 30 s); RailLatency delays every sandbox rail call (the bench).
	SandboxUnknownWindow time.Duration
	RailLatency          time.Duration
	// Pipeline holds the pipeline's tuning (retries, polls, review
	// threshold, live rate); Open sets its DB, Log and Rates, its sandbox
	// Rail when nil, its Live rail from Live, and defaults for zero fields.
	Pipeline payout.Pipeline

	// Live builds the live rail on the opened database and Sealer (nil:
	// live confirms are refused). StellarSync is how often its vaults are compared with
	// the chain (0: only when a caller syncs them).
	Live        func(db *store.DB, sealer *store.Sealer) (*stellar.Rail, error)
	StellarSync time.Duration

	// WebhookSchedule is the wait before each retry of a failed delivery
	// (nil: jobs.DefaultWebhookSchedule); WebhookTimeout bounds one
	// delivery (0: 10 s); WebhookWorkers is how many run at once (0: 8).
	WebhookSchedule []time.Duration
	WebhookTimeout  time.Duration
	WebhookWorkers  int
	// SandboxPrivateWebhooks lets sandbox webhooks reach private and
	// link-local addresses (jobs.RuleFor).
	SandboxPrivateWebhooks bool

	// SMTP, when set, e-mails each notice through this mail server (serve
	// -smtp-url); BaseURL starts the console links in those e-mails.
	SMTP    *jobs.SMTP
	BaseURL string
	// NoticeDates is how often the dated notices (advance tax, LUT, rule
	// 96A) are looked for (0: jobs.NoticeDatesInterval).
	NoticeDates time.Duration

	// Metrics, when set, reads the database at each scrape and is told of
	// payout moves, webhook deliveries and failed jobs.
	Metrics *metrics.Metrics

	// Lock is the file's lock, taken before anything was done beside the
	// file (the master key); Open opens the file through it, as its access
	// allows. Nil: Open takes the server's lock itself (store.Open).
	Lock *store.FileLock
}

// App is one wired process.
type App struct {
	DB       *store.DB
	River    *store.RiverClient
	Pipeline *payout.Pipeline
	Live     *stellar.Rail // nil without a live rail

	log     *slog.Logger
	started bool
	// reclaimed is set once the first Start has taken over what a previous
	// process left running.
	reclaimed bool
	metrics   *metrics.Metrics
	// unsubscribe ends the metrics' subscription to River's failed jobs.
	unsubscribe func()
}

// Open opens the database and wires everything on it. On error nothing
// is left open.
func Open(ctx context.Context, c Config) (*App, error) {
	var db *store.DB
	var err error
	if c.Lock != nil {
		db, err = c.Lock.Open(ctx, c.Schema)
	} else {
		db, err = store.Open(ctx, c.Path, c.Schema)
	}
	if err != nil {
		return nil, err
	}
	if c.Lock != nil && c.Lock.Access().ReadOnly() {
		// A read-only process writes no event and queues no job.
		return &App{DB: db, log: slog.New(slog.NewTextHandler(io.Discard, nil))}, nil
	}
	c.Metrics.ReadStore(db)
	a, err := wire(db, c)
	if err != nil {
		db.Close()
		return nil, err
	}
	return a, nil
}

func wire(db *store.DB, c Config) (*App, error) {
	log := c.Log
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	a := &App{DB: db, log: log, metrics: c.Metrics}
	if c.Live != nil {
		var err error
		if a.Live, err = c.Live(db, c.Sealer); err != nil {
			return nil, err
		}
	}
	a.Pipeline = pipeline(db, c, log)
	if a.Live != nil {
		a.Pipeline.Live = a.Live
	}
	// Every event written through this database fans out to the webhook
	// endpoints subscribed to it, and to its user's notice, in the event's
	// own transaction.
	db.SetEventHook(jobs.EventHook(c.SMTP != nil))
	rc, err := db.NewRiverClient(riverConfig(db, a, c, log))
	if err != nil {
		return nil, err
	}
	a.River = rc
	return a, nil
}

// pipeline is c.Pipeline on db with its defaults filled in.
func pipeline(db *store.DB, c Config, log *slog.Logger) *payout.Pipeline {
	pl := c.Pipeline
	pl.DB, pl.Log = db, log
	if pl.Rates == nil {
		pl.Rates = c.Rates
	}
	if pl.Rates == nil {
		pl.Rates = rates.Default()
	}
	window := cmp.Or(c.SandboxUnknownWindow, 30*time.Second)
	if pl.Rail == nil {
		pl.Rail = &payout.SandboxSettlement{Rates: pl.Rates, UnknownWindow: window, Now: db.Now}
		if c.RailLatency > 0 {
			pl.Rail = &payout.LatentSettlement{Settlement: pl.Rail, Latency: c.RailLatency}
		}
	}
	pl.SubmitAttempts = cmp.Or(pl.SubmitAttempts, 3)
	pl.SubmitBackoff = cmp.Or(pl.SubmitBackoff, 20*time.Millisecond)
	pl.UnknownPoll = cmp.Or(pl.UnknownPoll, min(window/4+time.Millisecond, 5*time.Second))
	pl.ReviewThresholdINR = cmp.Or(pl.ReviewThresholdINR, payout.DefaultReviewThresholdINR)
	if pl.BlockedCountries == nil {
		pl.BlockedCountries = payout.DefaultBlockedCountries
	}
	return &pl
}

// Start runs River's workers, which move every confirmed payout and deliver
// webhooks. The first Start first takes over what a previous process left
// behind (store.ReclaimJobs): this process holds the file's server lock, so
// that process is gone, and its running jobs run again at once.
func (a *App) Start(ctx context.Context) error {
	if !a.reclaimed {
		n, err := a.DB.ReclaimJobs(ctx)
		if err != nil {
			return err
		}
		a.reclaimed = true
		if n > 0 {
			a.log.Info("jobs a previous process left running run again", "jobs", n)
		}
	}
	// River hard-stops (cancelling every running job) when its Start
	// context ends; the signal that ends ctx must begin a soft stop
	// instead, which Stop does.
	if a.metrics != nil && a.unsubscribe == nil {
		failed, cancel := a.River.Subscribe(river.EventKindJobFailed)
		a.unsubscribe = cancel
		go func() {
			for ev := range failed {
				a.metrics.JobFailed(ev.Job.Kind)
			}
		}()
	}
	if err := a.River.Start(context.WithoutCancel(ctx)); err != nil {
		return err
	}
	a.started = true
	return nil
}

// cancelWait is how long jobs get to wind down once their contexts are
// cancelled after the grace period.
const cancelWait = 5 * time.Second

// Stop ends the background work: no new jobs are fetched, and jobs in
// flight (a webhook being delivered, a payout being submitted) finish
// until ctx ends, so they are not cut and run again at the next start.
// Only then are the stragglers' contexts cancelled. Jobs still queued run
// at the next start.
func (a *App) Stop(ctx context.Context) error {
	if !a.started {
		return nil
	}
	a.started = false
	err := a.River.Stop(ctx)
	if err == nil || ctx.Err() == nil {
		return err
	}
	a.log.Warn("jobs still running after the shutdown grace period; cancelling them")
	hard, cancel := context.WithTimeout(context.Background(), cancelWait)
	defer cancel()
	return a.River.StopAndCancel(hard)
}

// closeGrace is how long Close lets running jobs finish.
const closeGrace = 10 * time.Second

// Close stops the workers, if started, and closes the database.
func (a *App) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), closeGrace)
	defer cancel()
	err := a.Stop(ctx)
	if a.unsubscribe != nil {
		a.unsubscribe()
	}
	return errors.Join(err, a.DB.Close())
}
