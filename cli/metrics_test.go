package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/payoutd/payoutd/internal/wait"
)

// scrape reads url's metrics through the Prometheus text parser.
func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("GET %s: %d", url, res.StatusCode)
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Fatalf("Content-Type %q, want Prometheus text", ct)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(res.Body)
	if err != nil {
		t.Fatalf("the scrape does not parse: %v", err)
	}
	return fams
}

// sample is the value of the family's sample whose labels include want
// (a counter's or gauge's value, a histogram's count), 0 when absent.
func sample(fams map[string]*dto.MetricFamily, name string, want ...string) float64 {
	f := fams[name]
	if f == nil {
		return 0
	}
	total := 0.0
next:
	for _, m := range f.GetMetric() {
		labels := map[string]string{}
		for _, l := range m.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		for i := 0; i+1 < len(want); i += 2 {
			if labels[want[i]] != want[i+1] {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			total += m.Counter.GetValue()
		case m.Gauge != nil:
			total += m.Gauge.GetValue()
		case m.Histogram != nil:
			total += float64(m.Histogram.GetSampleCount())
		}
	}
	return total
}

// metricsURL is where p serves its metrics, from its "payoutd metrics on"
// line.
func metricsURL(t *testing.T, p *proc) string {
	t.Helper()
	for _, line := range strings.Split(p.Stdout.String(), "\n") {
		if addr, ok := strings.CutPrefix(line, "payoutd metrics on "); ok {
			return "http://" + strings.TrimSpace(addr) + "/metrics"
		}
	}
	t.Fatalf("no metrics line in:\n%s", p.Stdout)
	return ""
}

func demoKey(t *testing.T, p *proc) string {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(p.Stdout.Bytes()))
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "sk_sandbox_") {
			return sc.Text()
		}
	}
	t.Fatalf("no demo key in %q", p.Stdout.String())
	return ""
}

// TestMetricsMoveWhenAPayoutCompletes: with -metrics-addr the server
// answers Prometheus text on that listener, which the Prometheus parser
// reads, and a completed payout moves what an operator watches: payouts
// by status, transitions, confirm-to-completed, requests by route, jobs,
// commits, webhook deliveries and rate-limit refusals.
func TestMetricsMoveWhenAPayoutCompletes(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dir := t.TempDir()
	p := start(t, dir, "-metrics-addr", "127.0.0.1:0", "-rate-limits", "auth-failures=2")
	url := metricsURL(t, p)
	key := demoKey(t, p)
	var hooks atomic.Int32
	rx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hooks.Add(1) }))
	defer rx.Close()
	status, _ := post(t, p.URL+"/api/v1/webhooks", key, map[string]any{"url": rx.URL + "/hook", "eventTypes": []string{"payout.completed"}})
	is.Equal(status, 201)

	before := scrape(t, url)
	for _, name := range []string{"payoutd_commit_duration_seconds", "payoutd_commit_batch_size", "payoutd_storage_full", "payoutd_storage_writable", "payoutd_vaults_quarantined", "payoutd_vaults_blocked", "go_goroutines"} {
		if before[name] == nil {
			t.Errorf("the scrape has no %s", name)
		}
	}
	is.Equal(sample(before, "payoutd_storage_full"), 0.0)
	is.Equal(sample(before, "payoutd_storage_writable"), 1.0)
	completed := sample(before, "payoutd_payouts", "status", "COMPLETED", "mode", "sandbox")

	status, m := post(t, p.URL+"/v1/payments", key, map[string]any{"amount": "12.00", "currency": "USD", "recipient": crashAddress})
	is.Equal(status, 201)
	id := m["id"].(string)
	wait.Until(t, 30*time.Second, "the payout to complete", func() bool {
		_, body := get(t, p.URL+"/api/v1/payments/payouts/"+id, key)
		return strings.Contains(string(body), `"status":"COMPLETED"`)
	})
	wait.Until(t, 30*time.Second, "the webhook delivery", func() bool { return hooks.Load() > 0 })
	for i := 0; i < 3; i++ {
		get(t, p.URL+"/api/v1/payments", "sk_sandbox_wrong")
	}

	var after map[string]*dto.MetricFamily
	wait.For(t, 30*time.Second, func() error {
		after = scrape(t, url)
		if got := sample(after, "payoutd_webhook_deliveries_total", "outcome", "delivered"); got < 1 {
			return fmt.Errorf("deliveries delivered: %v", got)
		}
		// River records a finished job a moment after it returns.
		if got := sample(after, "payoutd_jobs", "state", "completed"); got < 1 {
			return fmt.Errorf("jobs completed: %v", got)
		}
		return nil
	})
	is.Equal(sample(after, "payoutd_payouts", "status", "COMPLETED", "mode", "sandbox"), completed+1)
	is.Equal(sample(after, "payoutd_payout_transitions_total", "from", "CONFIRMED", "to", "COMPLETED", "mode", "sandbox"), 1.0)
	is.Equal(sample(after, "payoutd_payout_transitions_total", "from", "INITIATED", "to", "COMPLIANCE_CHECK", "mode", "sandbox"), 1.0)
	is.Equal(sample(after, "payoutd_payout_confirm_to_completed_seconds", "mode", "sandbox"), 1.0)
	is.True(sample(after, "payoutd_http_requests_total", "route", "POST /v1/payments", "status", "201") >= 1)
	is.True(sample(after, "payoutd_http_request_duration_seconds", "route", "POST /v1/payments") >= 1)
	is.True(sample(after, "payoutd_commit_duration_seconds") > sample(before, "payoutd_commit_duration_seconds"))
	is.True(sample(after, "payoutd_commit_batch_size") > sample(before, "payoutd_commit_batch_size"))
	is.Equal(sample(after, "payoutd_rate_limited_total", "limit", "auth-failures"), 1.0)
	is.Equal(sample(after, "payoutd_http_requests_total", "status", "429"), 1.0)
}
