package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// TestBenchSmoke runs `payoutd bench` tiny: every phase runs and the JSON
// carries the keys the issue names. The real figures come from a full run
// (docs/performance.md), never from a test.
func TestBenchSmoke(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs a load phase")
	}
	is := is.New(t)
	var out bytes.Buffer
	err := run(context.Background(), []string{"bench", "-duration", "600ms", "-sizes", "200,400", "-samples", "20", "-users", "4", "-concurrency", "4",
		"-backlog", "300", "-rail-latency", "10ms", "-preseed", "200", "-json"},
		func(string) string { return "" }, &out, io.Discard)
	is.NoErr(err)
	var m map[string]any
	is.NoErr(json.Unmarshal(out.Bytes(), &m))
	for _, k := range []string{"storage.commits_per_s", "storage.rows_per_s", "initiate.req_per_s", "initiate.p50_ms", "initiate.p99_ms",
		"confirm.req_per_s", "confirm.p99_ms", "confirm.payouts_per_s", "pipeline.payouts_per_s", "pipeline_latent.payouts_per_s",
		"pipeline.lag_p99_ms", "reads", "rss_peak_mb"} {
		_, ok := m[k]
		is.True(ok) // every key the issue names is present
	}
	is.True(m["storage.commits_per_s"].(float64) > 0)
	is.True(m["initiate.req_per_s"].(float64) > 0)
	is.True(m["pipeline.payouts_per_s"].(float64) > 0)        // the backlog drain ran
	is.True(m["pipeline_latent.payouts_per_s"].(float64) > 0) // and the latent-rail drain
	reads := m["reads"].([]any)
	is.True(len(reads) >= 8) // at least 4 paths at 2 sizes
	var table bytes.Buffer
	is.NoErr(run(context.Background(), []string{"bench", "-duration", "300ms", "-sizes", "100", "-samples", "10", "-users", "2", "-concurrency", "2", "-backlog", "100", "-rail-latency", "0"},
		func(string) string { return "" }, &table, io.Discard))
	is.True(bytes.Contains(table.Bytes(), []byte("pipeline: backlog drain (100 payouts) payouts/s")))
	is.True(!bytes.Contains(table.Bytes(), []byte("latent rail"))) // -rail-latency 0 skips that drain
}

// TestBenchRefusesBadFlags: a flag the bench cannot run with is refused
// before anything starts, naming the flag.
func TestBenchRefusesBadFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"-samples", "0"},
		{"-backlog", "-1"},
		{"-sizes", "ten"},
		{"-profile-phase", "reads"},
	} {
		err := run(context.Background(), append([]string{"bench"}, args...), func(string) string { return "" }, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), args[0]) {
			t.Errorf("bench %v: %v, want an error naming %s", args, err, args[0])
		}
	}
}
