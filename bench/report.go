package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
)

// Machine describes where the numbers were measured.
type Machine struct {
	CPUs   int    `json:"cpus"`
	CPU    string `json:"cpu"`
	GoVer  string `json:"go"`
	OSArch string `json:"os_arch"`
}

func machine() Machine {
	m := Machine{CPUs: runtime.NumCPU(), GoVer: runtime.Version(), OSArch: runtime.GOOS + "/" + runtime.GOARCH}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "model name") {
				m.CPU = strings.TrimSpace(l[strings.IndexByte(l, ':')+1:])
				break
			}
		}
	}
	return m
}

// rssPeakMB is this process's peak resident set (VmHWM): the server runs
// in-process, so it includes the load generator's own memory.
func rssPeakMB() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			f := strings.Fields(l)
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}

// WriteTable prints the human report.
func WriteTable(w io.Writer, r Result) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "payoutd bench — %d CPUs (%s), %s\n\n", r.Machine.CPUs, r.Machine.CPU, r.Machine.GoVer)
	fmt.Fprintln(tw, "measure\tvalue\tp50 ms\tp99 ms\tp99.9 ms\terrors\tcpu ms/op\tsteal %\t")
	fmt.Fprintf(tw, "storage: durable 1-row commits/s\t%.0f\t\t\t\t\t\n", r.Storage.CommitsPerS)
	fmt.Fprintf(tw, "storage: batched rows/s\t%.0f\t\t\t\t\t\n", r.Storage.RowsPerS)
	fmt.Fprintf(tw, "POST /payments/initiate req/s\t%.0f\t%.2f\t%.2f\t%.2f\t%d\t%.3f\t%.0f\t\n", r.Initiate.ReqPerS, r.Initiate.P50MS, r.Initiate.P99MS, r.Initiate.P999MS, r.Initiate.Errors, r.Initiate.CPUMSPerReq, r.Initiate.StealPct)
	fmt.Fprintf(tw, "POST /payments/confirm req/s\t%.0f\t%.2f\t%.2f\t%.2f\t%d\t\t\t\n", r.Confirm.ReqPerS, r.Confirm.P50MS, r.Confirm.P99MS, r.Confirm.P999MS, r.Confirm.Errors)
	c := r.Confirmed
	fmt.Fprintf(tw, "confirm→COMPLETED with the pipeline running, payouts/s\t%.0f\t%.2f\t%.2f\t\t\t%.3f\t%.0f\t\n", c.PayoutsPerS, c.EndToEndP50, c.EndToEndP99, c.CPUMSPerPayout, c.StealPct)
	fmt.Fprintf(tw, "pipeline queue lag\t\t%.2f\t%.2f\t\t\t\n", c.LagP50MS, c.LagP99MS)
	if c.CommitBatches > 0 {
		fmt.Fprintf(tw, "group commit: logical txns per SQLite commit\t%.1f\t\t\t\t\t\n", float64(c.CommitTxns)/float64(c.CommitBatches))
		fmt.Fprintf(tw, "group commit: writer busy s (of the load phases)\t%.1f\t\t\t\t\t\n", c.CommitBusyS)
		fmt.Fprintf(tw, "confirm + pipeline: writer busy ms per payout\t%.3f\t\t\t\t\t\n", c.WriterMSPerPayout)
		fmt.Fprintf(tw, "confirm + pipeline: writer thread CPU ms per payout (no steal)\t%.3f\t\t\t\t\t\n", c.WriterCPUMSPerPayout)
		fmt.Fprintf(tw, "confirm + pipeline: writer statements per payout\t%.1f\t\t\t\t\t\n", c.WriterStatementsPerPayout)
	}
	for _, d := range []struct {
		name string
		r    DrainResult
	}{{"pipeline: backlog drain", r.Pipeline}, {"pipeline: backlog drain, latent rail", r.PipelineLatent}} {
		if d.r.Payouts == 0 || d.r.DrainS == 0 {
			continue
		}
		label := fmt.Sprintf("%s (%d payouts", d.name, d.r.Payouts)
		if d.r.RailLatencyMS > 0 {
			label += fmt.Sprintf(", %.0f ms per rail call", d.r.RailLatencyMS)
		}
		if d.r.Preseeded > 0 {
			label += fmt.Sprintf(", %d preseeded", d.r.Preseeded)
		}
		fmt.Fprintf(tw, "%s) payouts/s\t%.0f\t\t\t\t\t%.3f\t%.0f\t\n", label, d.r.PayoutsPerS, d.r.CPUMSPerPayout, d.r.StealPct)
		fmt.Fprintf(tw, "%s: writer thread CPU ms per payout\t%.3f\t\t\t\t\t\n", d.name, d.r.WriterCPUMSPerPayout)
		fmt.Fprintf(tw, "%s: writer statements per payout\t%.1f\t\t\t\t\t\n", d.name, d.r.WriterStatementsPerPayout)
	}
	for _, rd := range r.Reads {
		fmt.Fprintf(tw, "GET %s @ %d payments\t\t%.2f\t%.2f\t\t\t\n", rd.Path, rd.Payments, rd.P50MS, rd.P99MS)
	}
	fmt.Fprintf(tw, "peak RSS MB under API + pipeline load (server and load generator)\t%.0f\t\t\t\t\t\n", r.RSSPeak)
	fmt.Fprintf(tw, "peak RSS MB including the 10^6-row seeding\t%.0f\t\t\t\t\t\n", r.RSSPeakWithSeed)
	tw.Flush()
	fmt.Fprintf(w, "\nratios: initiate req/s ÷ raw commits/s = %.2f; pipeline payouts/s ÷ raw commits/s = %.3f\n",
		r.Ratios.InitiateOverCommits, r.Ratios.PipelineOverCommits)
}

// WriteJSON prints one JSON object with the flat keys the issue names
// (storage.commits_per_s, …) beside the nested result.
func WriteJSON(w io.Writer, r Result) error {
	flat := map[string]any{
		"storage.commits_per_s":         r.Storage.CommitsPerS,
		"storage.rows_per_s":            r.Storage.RowsPerS,
		"initiate.req_per_s":            r.Initiate.ReqPerS,
		"initiate.p50_ms":               r.Initiate.P50MS,
		"initiate.p99_ms":               r.Initiate.P99MS,
		"initiate.p999_ms":              r.Initiate.P999MS,
		"confirm.req_per_s":             r.Confirm.ReqPerS,
		"confirm.p99_ms":                r.Confirm.P99MS,
		"confirm.payouts_per_s":         r.Confirmed.PayoutsPerS,
		"pipeline.payouts_per_s":        r.Pipeline.PayoutsPerS,
		"pipeline.cpu_ms_per_payout":    r.Pipeline.CPUMSPerPayout,
		"pipeline_latent.payouts_per_s": r.PipelineLatent.PayoutsPerS,
		"pipeline.lag_p99_ms":           r.Confirmed.LagP99MS,
		"reads":                         r.Reads,
		"rss_peak_mb":                   r.RSSPeak,
		"rss_peak_with_seed_mb":         r.RSSPeakWithSeed,
		"machine":                       r.Machine,
		"detail":                        r,
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(flat); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}
