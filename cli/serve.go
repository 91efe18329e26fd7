package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"syscall"
	"time"

	"github.com/payoutd/payoutd/app"
	"github.com/payoutd/payoutd/console"
	"github.com/payoutd/payoutd/jobs"
	"github.com/payoutd/payoutd/metrics"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/stellar"
	"github.com/payoutd/payoutd/store"
)

type serveConfig struct {
	common
	logLevel      string
	addr          string
	baseURL       string
	mode          string
	rates         string
	unknownWindow time.Duration
	workers       int
	limits        string
	webhookRetry  string
	grace         time.Duration
	stellar       stellarFlags
	liveRates     rateFlags
	jobTimeout    time.Duration
	// sandboxPrivateWebhooks lets sandbox webhooks reach private addresses.
	sandboxPrivateWebhooks bool
	trustedProxies         string
	metricsAddr            string
	smtpURL, smtpFrom      string
	smtp                   *jobs.SMTP // read from smtpURL and smtpFrom by check
}

func serve(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var c serveConfig
	cmd := newCommand("serve", "[serve] [flags]",
		"Runs the HTTP API and the background jobs on one SQLite file, creating it (and the master key beside it)\n"+
			"on first start and migrating an older one. SIGTERM or SIGINT stops it gracefully.", stdout, stderr)
	fs := cmd.FlagSet
	c.register(fs, getenv, true)
	fs.StringVar(&c.logLevel, "log-level", envOr(getenv, "PAYOUTD_LOG_LEVEL", "info"), "debug, info, warn or error; JSON logs on stderr (env PAYOUTD_LOG_LEVEL)")
	fs.StringVar(&c.addr, "addr", envOr(getenv, "PAYOUTD_ADDR", ":8080"), "listen address (env PAYOUTD_ADDR)")
	fs.StringVar(&c.baseURL, "base-url", getenv("PAYOUTD_BASE_URL"), "public base URL (default http://localhost<addr>; env PAYOUTD_BASE_URL)")
	fs.StringVar(&c.mode, "mode", envOr(getenv, "PAYOUTD_MODE", "sandbox"), "sandbox or live (env PAYOUTD_MODE)")
	fs.StringVar(&c.rates, "rates", getenv("PAYOUTD_RATES"), `currency → INR rates overriding the sandbox table: inline JSON such as {"USD":"83.25"}, or the path of a file holding it (env PAYOUTD_RATES)`)
	fs.DurationVar(&c.unknownWindow, "sandbox-unknown-window", durationEnv(getenv, "PAYOUTD_SANDBOX_UNKNOWN_WINDOW", 30*time.Second),
		"how long a sandbox .99 payout stays UNKNOWN (env PAYOUTD_SANDBOX_UNKNOWN_WINDOW)")
	fs.IntVar(&c.workers, "workers", intEnv(getenv, "PAYOUTD_WORKERS", 200),
		"concurrent background jobs (more workers make bigger group commits) (env PAYOUTD_WORKERS)")
	fs.StringVar(&c.webhookRetry, "webhook-retries", envOr(getenv, "PAYOUTD_WEBHOOK_RETRIES", "5s,30s,2m,10m,1h,6h"),
		"waits before each retry of a failed webhook delivery (env PAYOUTD_WEBHOOK_RETRIES)")
	fs.DurationVar(&c.grace, "shutdown-grace", durationEnv(getenv, "PAYOUTD_SHUTDOWN_GRACE", 15*time.Second),
		"on SIGTERM, how long requests and jobs in flight (a webhook delivery: up to 10 s) get to finish before they are cancelled; "+
			"a supervisor must wait longer before it kills (env PAYOUTD_SHUTDOWN_GRACE)")
	fs.StringVar(&c.metricsAddr, "metrics-addr", getenv("PAYOUTD_METRICS_ADDR"),
		"listen address of the Prometheus metrics (GET /metrics), e.g. 127.0.0.1:9090; off when empty (env PAYOUTD_METRICS_ADDR)")
	fs.StringVar(&c.limits, "rate-limits", getenv("PAYOUTD_RATE_LIMITS"), "per-minute limit overrides, e.g. initiate=100,confirm=50,auth-failures=50 (env PAYOUTD_RATE_LIMITS)")
	fs.StringVar(&c.trustedProxies, "trusted-proxies", getenv("PAYOUTD_TRUSTED_PROXIES"),
		"reverse proxies (addresses or CIDRs, comma-separated) whose X-Forwarded-For names the client, for the limit on failed authentications (env PAYOUTD_TRUSTED_PROXIES)")
	fs.StringVar(&c.smtpURL, "smtp-url", getenv("PAYOUTD_SMTP_URL"),
		"mail server for notices by e-mail, smtp://user:password@host:587 (STARTTLS, required with a password) or smtps://…:465; off when empty (env PAYOUTD_SMTP_URL)")
	fs.StringVar(&c.smtpFrom, "smtp-from", getenv("PAYOUTD_SMTP_FROM"),
		"From address of notice e-mails, e.g. payoutd@example.com; required with -smtp-url (env PAYOUTD_SMTP_FROM)")
	c.stellar.register(fs, getenv)
	c.liveRates.register(fs, getenv)
	fs.DurationVar(&c.jobTimeout, "job-timeout", durationEnv(getenv, "PAYOUTD_JOB_TIMEOUT", 20*time.Second),
		"longest run of one background job. A job cut off by a crash runs again once it is this plus 5s old, at the next pass of "+
			"the rescuer (about every 30s, the first soon after start): measured 46-50s after the job started with 20s, "+
			"about a minute at worst (env PAYOUTD_JOB_TIMEOUT)")
	fs.BoolVar(&c.sandboxPrivateWebhooks, "sandbox-private-webhooks", boolEnv(getenv, "PAYOUTD_SANDBOX_PRIVATE_WEBHOOKS"),
		"let sandbox webhooks reach private and link-local addresses (a receiver on your LAN); loopback and public ones always may (env PAYOUTD_SANDBOX_PRIVATE_WEBHOOKS)")
	if err := cmd.parseNone(args); err != nil {
		return err
	}
	if err := checkEnvFlags(fs, getenv); err != nil {
		return err
	}
	if err := c.check(); err != nil {
		return err
	}
	log, err := logger(c.logLevel, stderr)
	if err != nil {
		return err
	}
	limits, err := parseLimits(c.limits)
	if err != nil {
		return err
	}
	proxies, err := parsePrefixes(c.trustedProxies)
	if err != nil {
		return fmt.Errorf("-trusted-proxies: %w", err)
	}
	// Every flag is checked before the database is touched.
	rateTable, err := loadRates(c.rates)
	if err != nil {
		return err
	}
	webhookSchedule, err := jobs.ParseWebhookSchedule(c.webhookRetry)
	if err != nil {
		return err
	}
	// The ports are taken before the database and its key are touched, so
	// a port in use leaves nothing behind.
	ln, err := listen(c.addr, "-addr")
	if err != nil {
		return err
	}
	defer ln.Close()
	var m *metrics.Metrics
	var mln net.Listener
	if c.metricsAddr != "" {
		if mln, err = listen(c.metricsAddr, "-metrics-addr"); err != nil {
			return err
		}
		defer mln.Close()
		m = metrics.New()
	}
	cfg := app.Config{Log: log, Workers: c.workers, JobTimeout: c.jobTimeout, Rates: rateTable,
		SandboxUnknownWindow: c.unknownWindow, WebhookSchedule: webhookSchedule, SandboxPrivateWebhooks: c.sandboxPrivateWebhooks,
		Metrics: m, SMTP: c.smtp}
	hc := httpConfig{live: c.mode == "live", rates: rateTable, limits: limits, log: log,
		sandboxPrivateWebhooks: c.sandboxPrivateWebhooks, trustedProxies: proxies, metrics: m, mail: c.smtp != nil}
	var live *liveRates
	if c.mode == "live" {
		if live, err = newLiveRates(ctx, c.rates, c.liveRates, log); err != nil {
			return err
		}
		cfg.Pipeline.LiveRate, hc.rateStatus = live.Rate, live.Status
		cfg.Pipeline.LiveUnknownAfter = min(liveUnknownAfter, 5*c.stellar.syncInterval)
		cfg.StellarSync = c.stellar.syncInterval
		if c.stellar.rpc != "" {
			cfg.Live = func(db *store.DB, sealer *store.Sealer) (*stellar.Rail, error) {
				return newLiveRail(ctx, c.stellar, db, sealer, live, m, log)
			}
		}
	}
	if c.baseURL == "" {
		c.baseURL = "http://" + strings.Replace(ln.Addr().String(), "[::]", "localhost", 1)
	}
	hc.baseURL = strings.TrimRight(c.baseURL, "/")
	cfg.BaseURL = hc.baseURL
	a, sealer, err := c.openApp(ctx, store.Serve, true, cfg)
	if err != nil {
		return err
	}
	defer a.Close()
	if live != nil {
		// Quotes kept by earlier runs value payouts settled while payoutd
		// was down; live quotes become the rate history GST values are
		// taken from.
		if err := rememberRates(ctx, a.DB, live); err != nil {
			return err
		}
		live.Keep(func(q map[string]rates.Quote) { keepRates(ctx, a.DB, q, log) })
	}
	srv, err := newServer(ctx, a, sealer, hc)
	if err != nil {
		return err
	}
	m.WatchStorageFull(srv.StorageFull)
	m.WatchStorageWritable(srv.StorageWritable)
	if c.mode == "sandbox" {
		if err := ensureDemoUser(ctx, a.DB, sealer, hc.baseURL, stdout); err != nil {
			return err
		}
	}
	if err := a.Start(ctx); err != nil {
		return err
	}
	hs := httpServer(srv, log)
	if mln != nil {
		go serveMetrics(mln, m, log)
		log.Info("metrics", "addr", mln.Addr().String())
		fmt.Fprintf(stdout, "payoutd metrics on %s\n", mln.Addr())
	}
	if c.smtp != nil {
		log.Info("notices by e-mail", "server", c.smtp.Addr(), "from", c.smtp.From)
	}
	log.Info("listening", "addr", ln.Addr().String(), "baseUrl", hc.baseURL, "mode", c.mode, "db", c.db)
	fmt.Fprintf(stdout, "payoutd listening on %s (%s mode)\n", ln.Addr(), c.mode)
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down", "grace", c.grace.String())
	shutdownCtx, cancel := context.WithTimeout(context.Background(), c.grace)
	defer cancel()
	// Requests and jobs in flight finish side by side within the grace
	// period; anything not done is picked up on the next start.
	jobsDone := make(chan error, 1)
	go func() { jobsDone <- a.Stop(shutdownCtx) }()
	err = hs.Shutdown(shutdownCtx)
	return errors.Join(err, <-jobsDone)
}

// serveMetrics answers GET /metrics on ln until it is closed.
func serveMetrics(ln net.Listener, m *metrics.Metrics, log *slog.Logger) {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	hs := httpServer(mux, log)
	if err := hs.Serve(ln); err != nil && !errors.Is(err, net.ErrClosed) {
		log.Error("metrics listener", "error", err.Error())
	}
}

// listen takes addr, and says plainly when another process has it.
func listen(addr, flagName string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, fmt.Errorf("%s %s: the address is in use by another process (another payoutd?); stop it or choose another address", flagName, addr)
	}
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", flagName, addr, err)
	}
	return ln, nil
}

// loadRates reads -rates: inline JSON (what starts with "{") or a file.
func loadRates(v string) (rates.Table, error) {
	if t := strings.TrimSpace(v); strings.HasPrefix(t, "{") {
		return rates.Parse([]byte(t), "-rates")
	}
	t, err := rates.Load(v)
	if err != nil {
		return nil, fmt.Errorf("-rates: %w", err)
	}
	return t, nil
}

// ensureDemoUser makes `go run .` usable at once: on an empty database it
// creates a sandbox user and prints its key and a console sign-in link, once.
func ensureDemoUser(ctx context.Context, db *store.DB, sealer *store.Sealer, baseURL string, stdout io.Writer) error {
	n, err := db.CountUsers(ctx)
	if err != nil || n > 0 {
		return err
	}
	var secret, token string
	err = db.WithTx(ctx, func(tx *store.Tx) error {
		u, _, err := tx.EnsureUser("demo@payoutd.local", false, "Demo Freelancer", sealer)
		if err != nil {
			return err
		}
		if _, secret, err = tx.CreateAPIKey(u, "demo", store.AllScopes); err != nil {
			return err
		}
		token, _, err = tx.CreateConsoleLink(u)
		return err
	}, store.WithActor("cli", ""))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Created sandbox user demo@payoutd.local. Its API key (shown once):\n%s\n", secret)
	fmt.Fprintf(stdout, "Console sign-in link (works once, for 15 minutes; payoutd console-link --email demo@payoutd.local makes another):\n%s\n",
		console.SignInURL(baseURL, token))
	return nil
}

// liveUnknownAfter is how long a live payout stays SUBMITTED without an
// outcome before it is UNKNOWN (or five chain syncs, if sooner): a
// transaction applies within a few ledgers (about 5 s each), so one that
// has not after half a minute is worth a person's notice.
const liveUnknownAfter = 30 * time.Second
