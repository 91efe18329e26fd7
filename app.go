package main

import (
	"cmp"
	"context"
	iofs "io/fs"
	"log/slog"
	"net/http"
	"time"

	"github.com/riverqueue/river"

	"github.com/payoutd/payoutd/jobs"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/server"
	"github.com/payoutd/payoutd/stellar"
	"github.com/payoutd/payoutd/store"
)

// appConfig is what wiring the server needs; serve and bench both build it.
type appConfig struct {
	baseURL         string
	live            bool
	rates           rates.Table
	unknownWindow   time.Duration
	workers         int
	limits          map[string]int
	webhookSchedule []time.Duration
	// railLatency delays every sandbox rail call (the bench's latent rail).
	railLatency time.Duration
	log         *slog.Logger
	// stellar is the live rail (nil: live confirms are refused) and
	// stellarSync how often its vaults are compared with the chain.
	stellar     *stellar.Rail
	stellarSync time.Duration
	// liveRates values live payouts (nil outside live mode).
	liveRates *liveRates
	// jobTimeout bounds one background job (0: the default).
	jobTimeout time.Duration
}

// app is one wired payoutd: store, River client with the pipeline's
// workers, and the HTTP handler.
type app struct {
	river *store.RiverClient
	srv   *server.Server
	log   *slog.Logger
}

func newApp(ctx context.Context, db *store.DB, sealer *store.Sealer, c appConfig) (*app, error) {
	var rail payout.Settlement = &payout.SandboxSettlement{Rates: c.rates, UnknownWindow: c.unknownWindow, Now: db.Now}
	if c.railLatency > 0 {
		rail = &payout.LatentSettlement{Settlement: rail, Latency: c.railLatency}
	}
	pl := &payout.Pipeline{
		DB: db, Rates: c.rates, Log: c.log,
		Rail:           rail,
		SubmitAttempts: 3, SubmitBackoff: 20 * time.Millisecond, UnknownPoll: min(c.unknownWindow/4+time.Millisecond, 5*time.Second),
		ReviewThresholdINR: payout.DefaultReviewThresholdINR, BlockedCountries: payout.DefaultBlockedCountries,
	}
	jc := jobs.ClientConfig{Workers: c.workers, Logger: quiet(c.log), Sealer: sealer, WebhookSchedule: c.webhookSchedule,
		JobTimeout: c.jobTimeout}
	var liveRail server.LiveRail
	var rateStatus func() (any, bool)
	if c.liveRates != nil {
		pl.LiveRate, rateStatus = c.liveRates.Rate, c.liveRates.Status
	}
	if c.stellar != nil {
		pl.Live, liveRail = c.stellar, c.stellar
		jc.AddWorkers = func(w *river.Workers) { river.AddWorker(w, &stellar.SyncWorker{Rail: c.stellar}) }
		jc.Periodic = []*river.PeriodicJob{stellar.SyncJob(cmp.Or(c.stellarSync, stellar.DefaultSyncInterval))}
	}
	rc, err := jobs.NewClient(db, pl, jc)
	if err != nil {
		return nil, err
	}
	static, err := iofs.Sub(staticFS, "static")
	if err != nil {
		return nil, err
	}
	srv, err := server.New(ctx, db, server.Config{
		BaseURL: c.baseURL, Live: c.live, Sealer: sealer, Logger: c.log, Limits: c.limits,
		Static: http.FS(static), Rates: c.rates, LiveRail: liveRail, RateStatus: rateStatus,
	})
	if err != nil {
		return nil, err
	}
	return &app{river: rc, srv: srv, log: c.log}, nil
}

// start runs the background work: River's workers, which move every
// confirmed payout (a killed process's running jobs are rescued by River),
// and the sandbox KYC reviewer.
func (a *app) start(ctx context.Context) error {
	// River hard-stops (cancelling every running job) when its Start
	// context ends; the signal that ends ctx must begin a soft stop
	// instead, which stop does.
	if err := a.river.Start(context.WithoutCancel(ctx)); err != nil {
		return err
	}
	// The sandbox KYC provider reviews submitted documents in the background.
	go a.srv.RunSandboxKYCReviewer(ctx, 500*time.Millisecond)
	return nil
}

// cancelWait is how long jobs get to wind down once their contexts are
// cancelled after the grace period.
const cancelWait = 5 * time.Second

// stop ends the background work: no new jobs are fetched, and jobs in
// flight (a webhook being delivered, a payout being submitted) finish
// until ctx ends, so they are not cut and run again at the next start.
// Only then are the stragglers' contexts cancelled. Jobs still queued run
// at the next start.
func (a *app) stop(ctx context.Context) error {
	err := a.river.Stop(ctx)
	if err == nil || ctx.Err() == nil {
		return err
	}
	a.log.Warn("jobs still running after the shutdown grace period; cancelling them")
	hard, cancel := context.WithTimeout(context.Background(), cancelWait)
	defer cancel()
	return a.river.StopAndCancel(hard)
}

// httpServer wraps the handler with the production timeouts.
func (a *app) httpServer(log *slog.Logger) *http.Server {
	return &http.Server{
		Handler: a.srv, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 15 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}
