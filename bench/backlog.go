package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/payoutd/payoutd/store"
)

// DrainResult is the pipeline on its own: a backlog of confirmed payouts,
// queued while its workers were stopped, drained to COMPLETED once they
// start. Nothing else runs meanwhile, so PayoutsPerS is what the pipeline
// alone sustains, not the confirm rate that fed it.
type DrainResult struct {
	Payouts        int     `json:"payouts"`
	Preseeded      int     `json:"preseeded"`
	RailLatencyMS  float64 `json:"rail_latency_ms"`
	DrainS         float64 `json:"drain_s"`
	PayoutsPerS    float64 `json:"payouts_per_s"`
	CPUMSPerPayout float64 `json:"cpu_ms_per_payout"`
	StealPct       float64 `json:"steal_pct"`
	// WriterCPUMSPerPayout is the write connection's own CPU per payout.
	WriterCPUMSPerPayout float64 `json:"writer_cpu_ms_per_payout"`
	// WriterStatementsPerPayout is how many statements the write
	// connection ran per payout drained (River's fetch and completion,
	// BEGIN and COMMIT included).
	WriterStatementsPerPayout float64 `json:"writer_statements_per_payout"`
}

// measureBacklog starts a server on a fresh file in dir with its workers
// held, preseeds history, initiates and confirms n payouts through the
// API, then starts the workers and times the drain.
func measureBacklog(ctx context.Context, o Options, start Starter, dir, name string, latency time.Duration, say func(string, ...any)) (DrainResult, error) {
	r := DrainResult{Payouts: o.Backlog, Preseeded: o.Preseed, RailLatencyMS: float64(latency) / float64(time.Millisecond)}
	t, err := start(ctx, filepath.Join(dir, name+".db"), StartOptions{HoldWorkers: true, RailLatency: latency})
	if err != nil {
		return r, err
	}
	defer t.Stop()
	t.DB.MeasureWriterCPU(true)
	users, err := makeUsers(ctx, t.DB, t.Sealer, o.Users)
	if err != nil {
		return r, err
	}
	if o.Preseed > 0 {
		t0 := time.Now()
		if err := preseed(ctx, t.DB, o.Preseed); err != nil {
			return r, err
		}
		say("%s: preseeded %d payouts with their history in %s", name, o.Preseed, time.Since(t0).Round(time.Millisecond))
	}
	clients, err := newWirePool(t.URL, o.Concurrency)
	if err != nil {
		return r, err
	}
	defer clients.close()
	ids, res := initiateN(ctx, clients, users, o.Backlog)
	if res.Errors > 0 || len(ids) != o.Backlog {
		return r, fmt.Errorf("%s: %d of %d initiates failed", name, o.Backlog-len(ids), o.Backlog)
	}
	confirmed, res := loadConfirm(ctx, clients, users, ids, time.Hour)
	if res.Errors > 0 || len(confirmed) != o.Backlog {
		return r, fmt.Errorf("%s: %d of %d confirms failed", name, o.Backlog-len(confirmed), o.Backlog)
	}
	say("%s: %d payouts confirmed (%.0f req/s); starting the workers…", name, len(confirmed), res.ReqPerS)
	cpu := startCPU()
	before := t.DB.CommitStats()
	if o.Phase != nil && latency == 0 {
		o.Phase("drain", true)
		defer o.Phase("drain", false)
	}
	t0 := time.Now()
	if err := t.StartWorkers(ctx); err != nil {
		return r, err
	}
	if err := waitDrained(ctx, t.DB, 10*time.Minute, 10*time.Millisecond); err != nil {
		return r, err
	}
	r.DrainS = time.Since(t0).Seconds()
	r.PayoutsPerS = float64(o.Backlog) / r.DrainS
	r.CPUMSPerPayout, r.StealPct = cpu.perOp(o.Backlog), cpu.stealPct()
	after := t.DB.CommitStats()
	r.WriterCPUMSPerPayout = ms(after.WriterCPU-before.WriterCPU) / float64(o.Backlog)
	r.WriterStatementsPerPayout = float64(after.Statements-before.Statements) / float64(o.Backlog)
	return r, nil
}

// waitDrained polls the maintained status counts every `every` until no
// payout is owed a pipeline step.
func waitDrained(ctx context.Context, db *store.DB, limit, every time.Duration) error {
	deadline := time.Now().Add(limit)
	for {
		// The maintained counts, not a scan of payments at every poll: the
		// load generator shares the CPU with the server it measures.
		open, err := db.Bench().PayoutsInFlight(ctx)
		if err != nil {
			return err
		}
		if open == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("pipeline: %d payouts still open after %s", open, limit)
		}
		time.Sleep(every)
	}
}

// preseed gives a user of its own n settled payouts with their ledger,
// reconciliations, audit rows, events and FIRAs.
func preseed(ctx context.Context, db *store.DB, n int) error {
	var userID string
	err := db.WithTx(ctx, func(tx *store.Tx) error {
		u, _, err := tx.People().EnsureUser("bench-history@payoutd.local", false, "Bench History", nil)
		userID = u.ID
		return err
	}, store.WithActor("bench", ""))
	if err != nil {
		return err
	}
	return db.Bench().SeedSettled(ctx, store.Seed{UserID: userID, To: n, Destination: address, History: true})
}
