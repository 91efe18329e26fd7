// Package server is payoutd's HTTP API: routing, auth, the shared HTTP
// conventions and one file per resource.
package server

import (
	"context"
	"log/slog"
	"net/http"
	"net/netip"
	"sync/atomic"
	"time"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/store"
)

// Config is what the server needs beyond the database.
type Config struct {
	BaseURL string
	Live    bool // the process serves live keys too; sandbox keys always work
	// LiveRail is the live settlement rail; nil when none is configured.
	LiveRail LiveRail
	// RateStatus reports the live INR rates for /readyz and whether all
	// are fresh; nil outside live mode.
	RateStatus func() (any, bool)
	Sealer     *store.Sealer
	Logger     *slog.Logger
	// Limits overrides the per-minute rate limits by route name (tests, bench).
	Limits map[string]int
	// Rates give the indicative INR value of unsettled payouts.
	Rates rates.Table
	// Console is the freelancer's console (package console), served at
	// /console/ inside the request id, access log and panic recovery every
	// route gets; nil serves none.
	Console http.Handler
	// SandboxPrivateWebhooks lets sandbox webhooks reach private and
	// link-local addresses (jobs.RuleFor).
	SandboxPrivateWebhooks bool
	// TrustedProxies are the reverse proxies whose X-Forwarded-For names
	// the client (clientAddr).
	TrustedProxies []netip.Prefix
	// Observer is told of every request and refusal (metrics); nil: none.
	Observer Observer
}

// Server holds the dependencies every handler shares.
type Server struct {
	db      *store.DB
	cfg     Config
	log     *slog.Logger
	tokens  *tokenIssuer
	limiter *rateLimiter
	// authFails counts failed authentications per client address.
	authFails *rateLimiter
	idem      *inflight
	mux       *http.ServeMux
	// storageFull is set when a write failed for lack of space and
	// cleared by /readyz once a probe write commits again.
	storageFull atomic.Bool
	writes      writeWatch // whether writes land, for /readyz
	limitNames  []string   // every route's limit name, as registered
}

// New builds the HTTP handler.
func New(ctx context.Context, db *store.DB, cfg Config) (*Server, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	tokens, err := newTokenIssuer(ctx, db, cfg.Sealer, cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	s := &Server{
		db: db, cfg: cfg, log: cfg.Logger, tokens: tokens,
		limiter: newRateLimiter(time.Minute), authFails: newRateLimiter(time.Minute), idem: newInflight(), mux: http.NewServeMux(),
	}
	s.routes()
	if cfg.Console != nil {
		s.mux.Handle("/console/", cfg.Console)
	}
	return s, nil
}

// ServeHTTP adds the request id, access log and panic recovery around every route.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	id := r.Header.Get("X-Request-Id")
	if !validRequestID(id) {
		id = store.NewID("req")
	}
	r = r.WithContext(context.WithValue(r.Context(), ctxRequestID{}, id))
	w.Header().Set("X-Request-Id", id)
	s.setDefaultHeaders(w.Header())
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	defer func() {
		p := recover()
		if p != nil {
			s.log.ErrorContext(r.Context(), "panic", slog.String("requestId", id), slog.Any("panic", p))
			if !rec.wrote {
				s.writeError(rec, r, apperr.Errorf(errInternal, "internal error"))
			}
		}
		d := time.Since(start)
		s.log.InfoContext(r.Context(), "request", slog.String("requestId", id), slog.String("method", r.Method),
			slog.String("path", r.URL.Path), slog.Int("status", rec.status), slog.Duration("duration", d))
		s.observe(r, rec.status, d)
		if p == http.ErrAbortHandler {
			panic(p) // net/http cuts the response: a streamed file that failed part-way is not taken for whole
		}
	}()
	if err := requestEdge(r); err != nil {
		s.writeError(rec, r, err)
		return
	}
	if tokenPage(r.URL.Path) {
		if s.tokenPageRefused(rec, r) {
			return
		}
		defer func() { s.tokenPageAnswered(r, rec.status) }()
	}
	s.mux.ServeHTTP(rec, r)
}

type ctxRequestID struct{}

func requestID(r *http.Request) string {
	id, _ := r.Context().Value(ctxRequestID{}).(string)
	return id
}

// RequestID is the id the server gave the request (X-Request-Id), for a
// mounted handler's logs and audit rows.
func RequestID(r *http.Request) string { return requestID(r) }

// validRequestID accepts a caller's X-Request-Id only if it is short and
// plain, so it can go into logs and audit rows safely.
func validRequestID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

type statusRecorder struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (r *statusRecorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
		oneCacheControl(r.Header())
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if !r.wrote {
		r.wrote = true
		oneCacheControl(r.Header())
	}
	return r.ResponseWriter.Write(b)
}

func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
