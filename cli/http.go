package cli

import (
	"context"
	"log/slog"
	"net/http"
	"net/netip"
	"time"

	"github.com/payoutd/payoutd/app"
	"github.com/payoutd/payoutd/console"
	"github.com/payoutd/payoutd/metrics"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/server"
	"github.com/payoutd/payoutd/store"
)

// httpConfig is what the HTTP API needs beyond the wired app; serve and
// bench both build it.
type httpConfig struct {
	baseURL string
	live    bool
	rates   rates.Table
	limits  map[string]int
	// rateStatus is the live rates' line in /readyz (nil outside live mode).
	rateStatus func() (any, bool)
	log        *slog.Logger
	// sandboxPrivateWebhooks lets sandbox webhooks reach private addresses;
	// trustedProxies are the reverse proxies whose X-Forwarded-For is believed.
	sandboxPrivateWebhooks bool
	trustedProxies         []netip.Prefix
	// metrics is told of every request (nil: no metrics).
	metrics *metrics.Metrics
	// mail: notices are e-mailed (-smtp-url), which Settings says.
	mail bool
}

// newServer builds the HTTP API, with the console mounted, on a wired app.
func newServer(ctx context.Context, a *app.App, sealer *store.Sealer, c httpConfig) (*server.Server, error) {
	var liveRail server.LiveRail
	var liveCheck payout.LiveCheck
	if a.Live != nil {
		liveRail, liveCheck = a.Live, a.Live
	}
	con, err := console.New(console.Config{DB: a.DB, BaseURL: c.baseURL, Sealer: sealer, Rates: c.rates, Live: liveCheck,
		Log: c.log, RequestID: server.RequestID, SandboxPrivateWebhooks: c.sandboxPrivateWebhooks, Mail: c.mail})
	if err != nil {
		return nil, err
	}
	return server.New(ctx, a.DB, server.Config{
		BaseURL: c.baseURL, Live: c.live, Sealer: sealer, Logger: c.log, Limits: c.limits,
		Rates: c.rates, LiveRail: liveRail, RateStatus: c.rateStatus, Console: con,
		SandboxPrivateWebhooks: c.sandboxPrivateWebhooks, TrustedProxies: c.trustedProxies, Observer: observer(c.metrics),
	})
}

// observer is m as the server's Observer, or none: a nil *Metrics in the
// interface would be told everything and count nothing.
func observer(m *metrics.Metrics) server.Observer {
	if m == nil {
		return nil
	}
	return m
}

// httpServer wraps the handler with the production timeouts.
func httpServer(h http.Handler, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler: h, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 15 * time.Second,
		WriteTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: server.ConnHeaderBytes,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}
