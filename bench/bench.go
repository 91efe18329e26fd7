// Package bench is `payoutd bench`: a bounded load run on loopback that
// reports, in one table, the raw storage limit beside what the API and the
// payout pipeline achieve on it.
package bench

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/payoutd/payoutd/store"
)

// Target is a running payoutd the bench drives.
type Target struct {
	URL    string
	DB     *store.DB
	Sealer *store.Sealer
	// StartWorkers starts the background workers of a target started
	// with HoldWorkers.
	StartWorkers func(ctx context.Context) error
	// Stop shuts the target down; calling it again does nothing.
	Stop func()
}

// StartOptions shape one target.
type StartOptions struct {
	// HoldWorkers starts the API without the background workers, so
	// confirmed payouts queue up until StartWorkers.
	HoldWorkers bool
	// RailLatency makes the sandbox rail answer every submit and status
	// call after this long, as a network rail would.
	RailLatency time.Duration
}

// Starter starts payoutd in-process on the database at path, with the
// per-minute rate limits of the bench users lifted by configuration.
type Starter func(ctx context.Context, dbPath string, o StartOptions) (*Target, error)

// Options bound the run.
type Options struct {
	Duration    time.Duration // each load phase
	Concurrency int           // HTTP clients
	Users       int           // bench users the load is spread over
	Sizes       []int         // database sizes for the read-path phase
	Samples     int           // GETs timed per read path and size
	Schema      string
	// Log hears each phase as it starts.
	Log *slog.Logger
	// Phase, when set, is called as the initiate, pipeline and drain
	// phases start and end (the bench's -profile-phase uses it); the drain
	// is the sandbox drain's timed part alone, from the workers' start.
	Phase func(phase string, starts bool)
	// Backlog is how many payouts the drain phases queue before their
	// workers start; 0 skips them.
	Backlog int
	// RailLatency is the latent-rail drain's delay per rail call; 0 skips it.
	RailLatency time.Duration
	// Preseed gives the drain phases' databases this many settled payouts
	// of history first.
	Preseed int
	// IdempotencyKeys sends an Idempotency-Key with every request of the
	// initiate phase, as a client that retries safely does: the body's
	// canonical form is hashed, looked up and stored with the payout.
	IdempotencyKeys bool
}

// Result is everything one run measured.
type Result struct {
	Storage  StorageResult `json:"storage"`
	Initiate LoadResult    `json:"initiate"`
	Confirm  LoadResult    `json:"confirm"`
	// Confirmed is confirm under load with the pipeline running beside
	// it: the rate at which payouts can be fed in.
	Confirmed PipeResult `json:"confirmed"`
	// Pipeline is the backlog drain with the sandbox rail; PipelineLatent
	// the same with a rail that answers after RailLatency.
	Pipeline       DrainResult  `json:"pipeline"`
	PipelineLatent DrainResult  `json:"pipeline_latent"`
	Reads          []ReadResult `json:"reads"`
	RSSPeak        float64      `json:"rss_peak_mb"`
	// RSSPeakWithSeed includes the read phase's seeding, done in-process.
	RSSPeakWithSeed float64 `json:"rss_peak_with_seed_mb"`
	Machine         Machine `json:"machine"`
	Ratios          Ratios  `json:"ratios"`
}

// Ratios relate what the service achieves to the storage limit.
type Ratios struct {
	InitiateOverCommits float64 `json:"initiate_over_commits"`
	PipelineOverCommits float64 `json:"pipeline_over_commits"`
}

// Run executes every phase in order on a fresh temporary database.
func Run(ctx context.Context, o Options, start Starter) (Result, error) {
	var res Result
	res.Machine = machine()
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	dir, err := os.MkdirTemp("", "payoutd-bench")
	if err != nil {
		return res, err
	}
	if os.Getenv("PAYOUTD_BENCH_KEEP") == "" {
		defer os.RemoveAll(dir)
	} else {
		o.Log.Info("bench: keeping the databases", "dir", dir)
	}
	say := func(format string, args ...any) { o.Log.Info("bench: " + fmt.Sprintf(format, args...)) }

	say("storage limit (%s)…", o.Duration)
	if res.Storage, err = measureStorage(ctx, filepath.Join(dir, "raw.db"), o.Schema, o.Duration); err != nil {
		return res, err
	}
	t, err := start(ctx, filepath.Join(dir, "payoutd.db"), StartOptions{})
	if err != nil {
		return res, err
	}
	defer t.Stop()
	t.DB.MeasureWriterCPU(true)
	users, err := makeUsers(ctx, t.DB, t.Sealer, o.Users)
	if err != nil {
		return res, err
	}
	say("initiate under load (%d clients, %s)…", o.Concurrency, o.Duration)
	phase := o.Phase
	if phase == nil {
		phase = func(string, bool) {}
	}
	clients, err := newWirePool(t.URL, o.Concurrency)
	if err != nil {
		return res, err
	}
	defer clients.close()
	phase("initiate", true)
	ids, initRes := loadInitiate(ctx, clients, users, o.Duration, o.IdempotencyKeys)
	phase("initiate", false)
	res.Initiate = initRes
	say("confirm under load, pipeline running…")
	pipeCPU := startCPU()
	phase("pipeline", true)
	stats0 := t.DB.CommitStats()
	confirmed, confRes := loadConfirm(ctx, clients, users, ids, o.Duration)
	res.Confirm = confRes
	say("draining the pipeline (%d payouts)…", len(confirmed))
	if res.Confirmed, err = measurePipeline(ctx, t.DB, confirmed, 2*time.Minute); err != nil {
		return res, err
	}
	phase("pipeline", false)
	if n := res.Confirmed.Payouts; n > 0 {
		stats := t.DB.CommitStats()
		res.Confirmed.WriterMSPerPayout = ms(stats.Busy-stats0.Busy) / float64(n)
		res.Confirmed.WriterCPUMSPerPayout = ms(stats.WriterCPU-stats0.WriterCPU) / float64(n)
		res.Confirmed.WriterStatementsPerPayout = float64(stats.Statements-stats0.Statements) / float64(n)
	}
	res.Confirmed.CPUMSPerPayout, res.Confirmed.StealPct = pipeCPU.perOp(res.Confirmed.Payouts), pipeCPU.stealPct()
	// The server's peak under API and pipeline load, before the read phase
	// seeds 10^6 rows from this same process.
	res.RSSPeak = rssPeakMB()
	say("read paths at %v payments…", o.Sizes)
	// The reads are timed one at a time, on a client of their own.
	if res.Reads, err = measureReads(ctx, &http.Client{Transport: &http.Transport{}}, t, o.Sizes, o.Samples, say); err != nil {
		return res, err
	}
	res.RSSPeakWithSeed = rssPeakMB()
	// Each drain runs a server of its own; this one, idle but still
	// polling for jobs and holding the read phase's history, would share
	// the process (its CPU and its collector) with them.
	t.Stop()
	if o.Backlog > 0 {
		say("pipeline drain: %d payouts queued with the workers stopped…", o.Backlog)
		if res.Pipeline, err = measureBacklog(ctx, o, start, dir, "drain", 0, say); err != nil {
			return res, err
		}
		if o.RailLatency > 0 {
			say("pipeline drain over a rail answering after %s…", o.RailLatency)
			if res.PipelineLatent, err = measureBacklog(ctx, o, start, dir, "drain-latent", o.RailLatency, say); err != nil {
				return res, err
			}
		}
	}
	if res.Storage.CommitsPerS > 0 {
		res.Ratios.InitiateOverCommits = res.Initiate.ReqPerS / res.Storage.CommitsPerS
		res.Ratios.PipelineOverCommits = res.Pipeline.PayoutsPerS / res.Storage.CommitsPerS
	}
	return res, nil
}
