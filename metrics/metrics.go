// Package metrics is payoutd's Prometheus metrics, served on a listener of
// their own (serve -metrics-addr). What the database keeps (payouts by
// status, jobs by state, the committer's figures) is read from the store
// at scrape time; what only happens in passing (requests, payout moves,
// deliveries, RPC calls, refusals, job errors) is counted by the hooks the
// wiring (package app, serve) hands each layer at its one door: the HTTP
// server's request wrapper, the store's payout move, the webhook worker's
// record, River's event stream and the live rail's HTTP client. No domain
// code knows this package. Every method of a nil *Metrics does nothing.
package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/payoutd/payoutd/store"
)

// Metrics is one process's registry and the counters its hooks move.
type Metrics struct {
	reg *prometheus.Registry

	requests        *prometheus.CounterVec
	latency         *prometheus.HistogramVec
	rateLimited     *prometheus.CounterVec
	transitions     *prometheus.CounterVec
	toCompleted     *prometheus.HistogramVec
	jobErrors       *prometheus.CounterVec
	deliveries      *prometheus.CounterVec
	rpcCalls        *prometheus.CounterVec
	rpcLatency      *prometheus.HistogramVec
	storageFull     func() bool
	storageWritable func() bool
}

// New builds the registry: the Go runtime's and the process's own
// metrics and payoutd's counters. ReadStore adds what the database keeps.
func New() *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "payoutd_http_requests_total",
		Help: "HTTP requests answered, by route (the pattern that matched) and status."}, []string{"route", "status"})
	m.latency = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "payoutd_http_request_duration_seconds",
		Help: "Time to answer an HTTP request, by route.", Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 10}},
		[]string{"route"})
	m.rateLimited = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "payoutd_rate_limited_total",
		Help: "Requests refused with 429, by limit (a route's limit name, or auth-failures)."}, []string{"limit"})
	m.transitions = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "payoutd_payout_transitions_total",
		Help: "Payout status changes committed, by from, to and mode."}, []string{"from", "to", "mode"})
	m.toCompleted = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "payoutd_payout_confirm_to_completed_seconds",
		Help:    "Time from a payout's confirmation to COMPLETED, by mode.",
		Buckets: []float64{.1, .25, .5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600, 21600}}, []string{"mode"})
	m.jobErrors = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "payoutd_job_errors_total",
		Help: "Background job runs that failed (River retries them, then discards), by kind."}, []string{"kind"})
	m.deliveries = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "payoutd_webhook_deliveries_total",
		Help: "Webhook delivery attempts, by outcome: delivered, failed (a retry follows) or disabled (the last retry failed: the endpoint is off)."},
		[]string{"outcome"})
	m.rpcCalls = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "payoutd_rail_rpc_calls_total",
		Help: "Calls to the live rail's Stellar RPC server, by JSON-RPC method and result: ok, rpc_error (an error object), http_<status> or unreachable."},
		[]string{"method", "result"})
	m.rpcLatency = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "payoutd_rail_rpc_duration_seconds",
		Help: "Time of one call to the Stellar RPC server, by method.", Buckets: []float64{.01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}},
		[]string{"method"})
	m.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.requests, m.latency, m.rateLimited, m.transitions, m.toCompleted, m.jobErrors, m.deliveries, m.rpcCalls, m.rpcLatency)
	return m
}

// ReadStore has every scrape read what db keeps (payouts by status, jobs
// by state, the committer's figures), and counts db's payout moves.
func (m *Metrics) ReadStore(db *store.DB) {
	if m == nil {
		return
	}
	m.reg.MustRegister(&storeCollector{db: db, m: m})
	db.Payments().ObservePayouts(m.PayoutMoved)
}

// Handler serves the registry in Prometheus' text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError})
}

// Request counts one answered HTTP request (server.Observer).
func (m *Metrics) Request(route string, status int, d time.Duration) {
	if m == nil {
		return
	}
	m.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
	m.latency.WithLabelValues(route).Observe(d.Seconds())
}

// RateLimited counts one request refused by a limit (server.Observer).
func (m *Metrics) RateLimited(limit string) {
	if m == nil {
		return
	}
	m.rateLimited.WithLabelValues(limit).Inc()
}

// PayoutMoved counts one committed payout move (store.ObservePayouts).
func (m *Metrics) PayoutMoved(mv store.PayoutMove) {
	if m == nil {
		return
	}
	mode := modeOf(mv.Livemode)
	m.transitions.WithLabelValues(mv.From, mv.To, mode).Inc()
	if mv.To == store.StatusCompleted && mv.SinceConfirm > 0 {
		m.toCompleted.WithLabelValues(mode).Observe(mv.SinceConfirm.Seconds())
	}
}

// JobFailed counts one failed job run.
func (m *Metrics) JobFailed(kind string) {
	if m == nil {
		return
	}
	m.jobErrors.WithLabelValues(kind).Inc()
}

// WebhookDelivery counts one delivery attempt's outcome.
func (m *Metrics) WebhookDelivery(outcome string) {
	if m == nil {
		return
	}
	m.deliveries.WithLabelValues(outcome).Inc()
}

// WatchStorageFull reports f (the server's "writes fail for lack of
// space") as payoutd_storage_full.
func (m *Metrics) WatchStorageFull(f func() bool) {
	if m != nil {
		m.storageFull = f
	}
}

// WatchStorageWritable reports f (the server's "writes land", which may
// commit a heartbeat to find out) as payoutd_storage_writable.
func (m *Metrics) WatchStorageWritable(f func() bool) {
	if m != nil {
		m.storageWritable = f
	}
}

func modeOf(live bool) string {
	if live {
		return "live"
	}
	return "sandbox"
}
