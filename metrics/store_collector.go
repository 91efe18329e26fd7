package metrics

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/payoutd/payoutd/store"
)

// scrapeTimeout bounds the store reads of one scrape.
const scrapeTimeout = 5 * time.Second

var (
	payoutsDesc = prometheus.NewDesc("payoutd_payouts", "Payouts now in each status, by mode.", []string{"status", "mode"}, nil)
	jobsDesc    = prometheus.NewDesc("payoutd_jobs",
		"Background jobs by River state (available, scheduled, running, retryable, discarded, completed: kept an hour), as River counts them.",
		[]string{"state"}, nil)
	commitDesc = prometheus.NewDesc("payoutd_commit_duration_seconds",
		"Time of one write transaction from its start to its answer, the wait for its group commit and the WAL fsync included.", nil, nil)
	batchDesc = prometheus.NewDesc("payoutd_commit_batch_size", "Write transactions carried by one group commit.", nil, nil)
	fullDesc  = prometheus.NewDesc("payoutd_storage_full",
		"1 while writes fail for lack of disk space (the API answers 503 ERR_STORAGE_FULL), else 0.", nil, nil)
	trackDesc = prometheus.NewDesc("payoutd_vaults_untracked",
		"Live vaults whose movements payoutd cannot vouch for, by why: gap (events the RPC server no longer kept), mismatch (the balance differs from the movements recorded) or fallback (no events served).",
		[]string{"reason"}, nil)
	writableDesc = prometheus.NewDesc("payoutd_storage_writable",
		"1 while writes land on the database (a write or a heartbeat became durable in the last seconds), 0 while they fail (read-only or failing disk: /readyz answers 503 storage_unwritable).", nil, nil)
	quarantinedDesc = prometheus.NewDesc("payoutd_vaults_quarantined",
		"Live vaults quarantined: they sign nothing until an operator releases them.", nil, nil)
	blockedDesc = prometheus.NewDesc("payoutd_vaults_blocked",
		"Live vaults whose transaction in flight belongs to an UNKNOWN payout: later payouts and deposits wait.", nil, nil)
	blockedForDesc = prometheus.NewDesc("payoutd_vaults_blocked_longest_seconds",
		"How long the longest blocked vault has been blocked (0 when none is).", nil, nil)
)

// storeCollector reads what the database keeps at scrape time, so the
// figures are the database's, whichever process changed them.
type storeCollector struct {
	db *store.DB
	m  *Metrics
}

func (c *storeCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{payoutsDesc, jobsDesc, commitDesc, batchDesc, fullDesc, writableDesc, quarantinedDesc, trackDesc, blockedDesc, blockedForDesc} {
		ch <- d
	}
}

func (c *storeCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), scrapeTimeout)
	defer cancel()
	if counts, err := c.db.Health().PayoutCounts(ctx); err != nil {
		ch <- prometheus.NewInvalidMetric(payoutsDesc, err)
	} else {
		for _, n := range counts {
			ch <- prometheus.MustNewConstMetric(payoutsDesc, prometheus.GaugeValue, float64(n.N), n.Status, modeOf(n.Livemode))
		}
	}
	if counts, err := c.db.Health().JobCounts(ctx); err != nil {
		ch <- prometheus.NewInvalidMetric(jobsDesc, err)
	} else {
		for _, n := range counts {
			ch <- prometheus.MustNewConstMetric(jobsDesc, prometheus.GaugeValue, float64(n.N), n.State)
		}
	}
	s := c.db.CommitStats()
	ch <- constHistogram(commitDesc, s.Latency)
	ch <- constHistogram(batchDesc, s.BatchSize)
	if f := c.m.storageFull; f != nil {
		v := 0.0
		if f() {
			v = 1
		}
		ch <- prometheus.MustNewConstMetric(fullDesc, prometheus.GaugeValue, v)
	}
	if f := c.m.storageWritable; f != nil {
		v := 0.0
		if f() {
			v = 1
		}
		ch <- prometheus.MustNewConstMetric(writableDesc, prometheus.GaugeValue, v)
	}
	if n, err := c.db.Movements().QuarantinedVaults(ctx); err != nil {
		ch <- prometheus.NewInvalidMetric(quarantinedDesc, err)
	} else {
		ch <- prometheus.MustNewConstMetric(quarantinedDesc, prometheus.GaugeValue, float64(n))
	}
	if troubles, err := c.db.Movements().TrackTroubles(ctx); err != nil {
		ch <- prometheus.NewInvalidMetric(trackDesc, err)
	} else {
		n := map[string]float64{"gap": 0, "mismatch": 0, "fallback": 0}
		for _, t := range troubles {
			switch {
			case t.Source == store.TrackBalance:
				n["fallback"]++
			case t.Gap():
				n["gap"]++
			default:
				n["mismatch"]++
			}
		}
		for reason, v := range n {
			ch <- prometheus.MustNewConstMetric(trackDesc, prometheus.GaugeValue, v, reason)
		}
	}
	if blocked, err := c.db.Vaults().BlockedVaults(ctx, ""); err != nil {
		ch <- prometheus.NewInvalidMetric(blockedDesc, err)
	} else {
		longest := 0.0
		if len(blocked) > 0 { // longest blocked first
			longest = time.Since(blocked[0].Since).Seconds()
		}
		ch <- prometheus.MustNewConstMetric(blockedDesc, prometheus.GaugeValue, float64(len(blocked)))
		ch <- prometheus.MustNewConstMetric(blockedForDesc, prometheus.GaugeValue, longest)
	}
}

func constHistogram(d *prometheus.Desc, h store.Histogram) prometheus.Metric {
	buckets := make(map[float64]uint64, len(h.Bounds))
	for i, b := range h.Bounds {
		buckets[b] = h.Counts[i]
	}
	return prometheus.MustNewConstHistogram(d, h.Count, h.Sum, buckets)
}
