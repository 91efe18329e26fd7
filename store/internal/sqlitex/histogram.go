package sqlitex

import (
	"sync/atomic"
	"time"
)

// Histogram counts observations into fixed buckets without a lock, so the
// committer can record every batch and a scrape can read it at any time.
type Histogram struct {
	bounds    []float64
	counts    []atomic.Uint64 // counts[i]: observations ≤ bounds[i] and > bounds[i-1]; the last is +Inf
	count     atomic.Uint64
	sumMicros atomic.Int64 // sum in millionths of the unit, so it adds atomically
}

func newHistogram(bounds ...float64) *Histogram {
	return &Histogram{bounds: bounds, counts: make([]atomic.Uint64, len(bounds)+1)}
}

// Observe records one value.
func (h *Histogram) Observe(v float64) {
	i := 0
	for i < len(h.bounds) && v > h.bounds[i] {
		i++
	}
	h.counts[i].Add(1)
	h.count.Add(1)
	h.sumMicros.Add(int64(v * 1e6))
}

// Snapshot is the histogram as Prometheus reads one: cumulative counts per
// upper bound, and the count and sum of all observations.
func (h *Histogram) Snapshot() (bounds []float64, cumulative []uint64, count uint64, sum float64) {
	cumulative = make([]uint64, len(h.bounds))
	var n uint64
	for i := range h.bounds {
		n += h.counts[i].Load()
		cumulative[i] = n
	}
	return h.bounds, cumulative, h.count.Load(), float64(h.sumMicros.Load()) / 1e6
}

// commitSeconds are the bounds of the commit latency: from WithTx to the
// caller's answer, the WAL fsync included.
var commitSeconds = []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5}

// batchSizes are the bounds of how many transactions one commit carried.
var batchSizes = []float64{1, 2, 4, 8, 16, 32, 64, 128, 256}

func seconds(d time.Duration) float64 { return d.Seconds() }
