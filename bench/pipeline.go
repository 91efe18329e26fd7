package bench

import (
	"context"
	"sort"
	"time"

	"github.com/payoutd/payoutd/store"
)

// PipeResult is confirmed → COMPLETED throughput with ledger, reconciliation,
// FIRA, tax refresh and webhook events included.
type PipeResult struct {
	Payouts     int     `json:"payouts"`
	PayoutsPerS float64 `json:"payouts_per_s"`
	LagP50MS    float64 `json:"lag_p50_ms"`
	LagP99MS    float64 `json:"lag_p99_ms"`
	EndToEndP50 float64 `json:"end_to_end_p50_ms"`
	EndToEndP99 float64 `json:"end_to_end_p99_ms"`
	// Group-commit counters over the whole run so far: SQLite transactions,
	// the logical transactions they carried, and seconds the writer was held.
	CommitBatches int64   `json:"commit_batches"`
	CommitTxns    int64   `json:"commit_txns"`
	CommitBusyS   float64 `json:"commit_busy_s"`
	// CPUMSPerPayout is process CPU time from the first confirm to the last
	// completion per payout, its confirm request included.
	CPUMSPerPayout float64 `json:"cpu_ms_per_payout"`
	// WriterMSPerPayout is how long the single write connection was held
	// by group commits per payout over the same span: the pipeline's
	// ceiling is 1000 / WriterMSPerPayout payouts/s.
	WriterMSPerPayout float64 `json:"writer_ms_per_payout"`
	// WriterCPUMSPerPayout is the writer thread's own CPU time in those
	// commits per payout: the same cost without the time the machine's
	// hypervisor took away, so changes compare across noisy runs.
	WriterCPUMSPerPayout float64 `json:"writer_cpu_ms_per_payout"`
	// WriterStatementsPerPayout is how many statements the write
	// connection ran per payout, River's, BEGIN and COMMIT included.
	WriterStatementsPerPayout float64 `json:"writer_statements_per_payout"`
	StealPct                  float64 `json:"steal_pct"`
}

// measurePipeline waits until every confirmed payout is COMPLETED, then
// reads completion times and River's queue lag (attempted_at − scheduled_at).
func measurePipeline(ctx context.Context, db *store.DB, confirmed []confirmedPayout, limit time.Duration) (PipeResult, error) {
	var r PipeResult
	if len(confirmed) == 0 {
		return r, nil
	}
	if err := waitDrained(ctx, db, limit, 20*time.Millisecond); err != nil {
		return r, err
	}
	cs := db.CommitStats()
	r.CommitBatches, r.CommitTxns, r.CommitBusyS = cs.Batches, cs.Transactions, cs.Busy.Seconds()
	first := confirmed[0].at
	confirmedAt := map[string]time.Time{}
	for _, c := range confirmed {
		confirmedAt[c.id] = c.at
		if c.at.Before(first) {
			first = c.at
		}
	}
	finished, err := db.FinishedPayouts(ctx)
	if err != nil {
		return r, err
	}
	var last time.Time
	var e2e []time.Duration
	for id, done := range finished {
		at, ok := confirmedAt[id]
		if !ok {
			continue
		}
		if done.After(last) {
			last = done
		}
		e2e = append(e2e, done.Sub(at))
		r.Payouts++
	}
	r.PayoutsPerS = float64(r.Payouts) / last.Sub(first).Seconds()
	sort.Slice(e2e, func(i, j int) bool { return e2e[i] < e2e[j] })
	r.EndToEndP50, r.EndToEndP99 = pct(e2e, 0.5), pct(e2e, 0.99)
	lag, err := queueLag(ctx, db)
	if err != nil {
		return r, err
	}
	r.LagP50MS, r.LagP99MS = pct(lag, 0.5), pct(lag, 0.99)
	return r, nil
}

// queueLag reads how long each confirmed payout waited before the pipeline
// acted on it: from its confirm's audit row (COMPLIANCE_CHECK) to the
// compliance step's (PROCESSING).
func queueLag(ctx context.Context, db *store.DB) ([]time.Duration, error) {
	confirmed, err := db.AuditTimes(ctx, "payment.compliance_check")
	if err != nil {
		return nil, err
	}
	processing, err := db.AuditTimes(ctx, "payment.processing")
	if err != nil {
		return nil, err
	}
	var out []time.Duration
	for id, c := range confirmed {
		if p, ok := processing[id]; ok && !p.Before(c) {
			out = append(out, p.Sub(c))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out, nil
}

// ms is d in (fractional) milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
