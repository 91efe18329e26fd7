package bench

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// sample is a result whose every figure is distinct, so a figure printed
// in the wrong row shows.
func sample() Result {
	return Result{
		Storage:  StorageResult{CommitsPerS: 1234, RowsPerS: 567890},
		Initiate: LoadResult{Requests: 40000, Errors: 1, ReqPerS: 4000, P50MS: 1.25, P99MS: 7.5, P999MS: 12.75, CPUMSPerReq: 0.321, StealPct: 3},
		Confirm:  LoadResult{Requests: 20000, Errors: 2, ReqPerS: 2000, P50MS: 2.5, P99MS: 9.25, P999MS: 15.5},
		Confirmed: PipeResult{Payouts: 20000, PayoutsPerS: 1500, LagP50MS: 3.5, LagP99MS: 21, EndToEndP50: 11, EndToEndP99: 42,
			CommitBatches: 1000, CommitTxns: 25000, CommitBusyS: 6.5, CPUMSPerPayout: 0.456, WriterMSPerPayout: 0.25,
			WriterCPUMSPerPayout: 0.125, WriterStatementsPerPayout: 21.25, StealPct: 4},
		Pipeline:       DrainResult{Payouts: 20000, DrainS: 10, PayoutsPerS: 2000, CPUMSPerPayout: 0.5, StealPct: 5, WriterCPUMSPerPayout: 0.2, WriterStatementsPerPayout: 16.5},
		PipelineLatent: DrainResult{Payouts: 20000, Preseeded: 100000, RailLatencyMS: 50, DrainS: 25, PayoutsPerS: 800, CPUMSPerPayout: 0.6, StealPct: 6, WriterCPUMSPerPayout: 0.3, WriterStatementsPerPayout: 19.5},
		Reads: []ReadResult{{Path: "/api/v1/payments?limit=20", Payments: 10000, P50MS: 0.75, P99MS: 2.25},
			{Path: "/api/v1/payments?limit=20", Payments: 1000000, P50MS: 0.8, P99MS: 2.5}},
		RSSPeak: 180, RSSPeakWithSeed: 420,
		Machine: Machine{CPUs: 2, CPU: "Test CPU @ 2.00GHz", GoVer: "go1.26.8", OSArch: "linux/amd64"},
		Ratios:  Ratios{InitiateOverCommits: 3.24, PipelineOverCommits: 1.621},
	}
}

// TestWriteTable: the human report prints every figure in its row
// (testdata/table.golden; go test -run TestWriteTable -update rewrites it).
func TestWriteTable(t *testing.T) {
	var buf bytes.Buffer
	WriteTable(&buf, sample())
	golden := filepath.Join("testdata", "table.golden")
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("table differs from %s:\n%s", golden, buf.String())
	}
}

// TestWriteTableSkipsDrainsNotRun: a drain that did not run (-backlog 0,
// -rail-latency 0) has no row rather than a row of zeros.
func TestWriteTableSkipsDrainsNotRun(t *testing.T) {
	r := sample()
	r.Pipeline, r.PipelineLatent = DrainResult{}, DrainResult{}
	var buf bytes.Buffer
	WriteTable(&buf, r)
	if bytes.Contains(buf.Bytes(), []byte("backlog drain")) {
		t.Errorf("a drain that never ran is reported:\n%s", buf.String())
	}
}

// TestWriteJSON: the flat keys carry the figures they name, and the
// detail is the whole result.
func TestWriteJSON(t *testing.T) {
	r := sample()
	var buf bytes.Buffer
	if err := WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]float64{
		"storage.commits_per_s": 1234, "storage.rows_per_s": 567890,
		"initiate.req_per_s": 4000, "initiate.p50_ms": 1.25, "initiate.p99_ms": 7.5, "initiate.p999_ms": 12.75,
		"confirm.req_per_s": 2000, "confirm.p99_ms": 9.25, "confirm.payouts_per_s": 1500,
		"pipeline.payouts_per_s": 2000, "pipeline.cpu_ms_per_payout": 0.5, "pipeline_latent.payouts_per_s": 800,
		"pipeline.lag_p99_ms": 21, "rss_peak_mb": 180, "rss_peak_with_seed_mb": 420,
	} {
		var got float64
		if err := json.Unmarshal(m[key], &got); err != nil || got != want {
			t.Errorf("%s = %s, want %g", key, m[key], want)
		}
	}
	var detail Result
	if err := json.Unmarshal(m["detail"], &detail); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(detail, r) {
		t.Errorf("detail %+v, want %+v", detail, r)
	}
}
