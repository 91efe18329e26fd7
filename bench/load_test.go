package bench

import (
	"sync"
	"testing"
	"time"
)

func TestPercentiles(t *testing.T) {
	lat := make([]time.Duration, 1000)
	for i := range lat {
		lat[i] = time.Duration(i+1) * time.Millisecond // 1 … 1000 ms, sorted
	}
	for _, c := range []struct {
		q    float64
		want float64
	}{{0.50, 500}, {0.99, 990}, {0.999, 999}, {0, 1}, {1, 1000}} {
		if got := pct(lat, c.q); got != c.want {
			t.Errorf("p%g of 1…1000 ms = %g ms, want %g", c.q*100, got, c.want)
		}
	}
	if got := pct(nil, 0.99); got != 0 {
		t.Errorf("p99 of nothing = %g, want 0", got)
	}
}

// TestRecorderCountsEveryRequest: requests recorded from many goroutines
// are all counted, failed ones as errors, the rate over the elapsed time,
// and the percentiles over all of them in order, whatever order they came
// in.
func TestRecorderCountsEveryRequest(t *testing.T) {
	var r recorder
	var wg sync.WaitGroup
	for g := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				n := i*10 + g // 0 … 999, interleaved across goroutines
				r.add(time.Duration(1000-n)*time.Millisecond, n%50 != 0)
			}
		}()
	}
	wg.Wait()
	res := r.result(4 * time.Second)
	if res.Requests != 1000 || res.Errors != 20 || res.ReqPerS != 250 {
		t.Errorf("%d requests, %d errors, %g req/s: want 1000, 20, 250", res.Requests, res.Errors, res.ReqPerS)
	}
	if res.P50MS != 500 || res.P99MS != 990 || res.P999MS != 999 {
		t.Errorf("p50 %g, p99 %g, p99.9 %g ms: want 500, 990, 999", res.P50MS, res.P99MS, res.P999MS)
	}
}

// TestLoadRunsUntilNoWorkIsLeft: the load phase stops when its step has
// no more work, counts what ran and what failed, and hands each sequence
// number to exactly one request.
func TestLoadRunsUntilNoWorkIsLeft(t *testing.T) {
	const n = 500
	var mu sync.Mutex
	seen := map[int64]int{}
	res := load(8, time.Hour, func(i int64) (bool, bool, time.Duration) {
		if i >= n {
			return false, false, 0
		}
		mu.Lock()
		seen[i]++
		mu.Unlock()
		return true, i%10 != 0, time.Millisecond
	})
	if res.Requests != n || res.Errors != n/10 {
		t.Errorf("%d requests, %d errors: want %d and %d", res.Requests, res.Errors, n, n/10)
	}
	for i := int64(0); i < n; i++ {
		if seen[i] != 1 {
			t.Fatalf("request %d ran %d times", i, seen[i])
		}
	}
	if res.P50MS != 1 || res.ReqPerS <= 0 {
		t.Errorf("p50 %g ms, %g req/s: want the steps' 1 ms and a rate", res.P50MS, res.ReqPerS)
	}
}
