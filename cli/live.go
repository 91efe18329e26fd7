package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/stellar/go-stellar-sdk/txnbuild"

	"github.com/payoutd/payoutd/metrics"
	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/stellar"
	"github.com/payoutd/payoutd/store"
)

// stellarFlags configure the live rail.
type stellarFlags struct {
	rpc          string
	network      string
	assets       string
	txTimeout    time.Duration
	syncInterval time.Duration
	maxFee       int64
	feePct       int

	// passphrase and parsed are what check read from network and assets;
	// defaultNetwork says no network was given (testnet, unless the
	// database is bound to another).
	passphrase     string
	parsed         stellar.Assets
	defaultNetwork bool
}

// check validates the live rail's flags (none without -stellar-rpc), so
// serve refuses a bad one before it touches the database.
func (f *stellarFlags) check() error {
	if f.rpc == "" {
		return nil
	}
	var err error
	f.defaultNetwork = strings.TrimSpace(f.network) == ""
	if f.passphrase, err = stellar.Passphrase(f.network); err != nil {
		return err
	}
	if f.parsed, err = stellar.ParseAssets(f.passphrase, f.assets); err != nil {
		return err
	}
	if f.txTimeout < 10*time.Second {
		return fmt.Errorf("-stellar-tx-timeout %s: a transaction needs at least 10s to reach a ledger", f.txTimeout)
	}
	if f.syncInterval < time.Second {
		return fmt.Errorf("-stellar-sync-interval %s: at least 1s", f.syncInterval)
	}
	if f.maxFee < txnbuild.MinBaseFee {
		return fmt.Errorf("-stellar-max-fee %d: at least the network minimum of %d stroops", f.maxFee, txnbuild.MinBaseFee)
	}
	if !slices.Contains(stellar.FeePercentiles, f.feePct) {
		return fmt.Errorf("-stellar-fee-percentile %d: one of %v", f.feePct, stellar.FeePercentiles)
	}
	return nil
}

func (f *stellarFlags) register(fs *flag.FlagSet, getenv func(string) string) {
	fs.StringVar(&f.rpc, "stellar-rpc", getenv("PAYOUTD_STELLAR_RPC"), "Stellar RPC server URL for live payouts, e.g. https://soroban-testnet.stellar.org (env PAYOUTD_STELLAR_RPC)")
	fs.StringVar(&f.network, "stellar-network", getenv("PAYOUTD_STELLAR_NETWORK"), "testnet, pubnet or a network passphrase; the RPC server must serve it (default: the network the database's live books are bound to, else testnet; env PAYOUTD_STELLAR_NETWORK)")
	fs.StringVar(&f.assets, "stellar-assets", getenv("PAYOUTD_STELLAR_ASSETS"), "vault currency → Stellar asset over the network's defaults (Circle's USDC and EURC), e.g. USD=USDC:G…,EUR=EURC:G… (env PAYOUTD_STELLAR_ASSETS)")
	fs.DurationVar(&f.txTimeout, "stellar-tx-timeout", durationEnv(getenv, "PAYOUTD_STELLAR_TX_TIMEOUT", stellar.DefaultTxTimeout), "upper time bound of a payout's transaction (env PAYOUTD_STELLAR_TX_TIMEOUT)")
	fs.Int64Var(&f.maxFee, "stellar-max-fee", int64Env(getenv, "PAYOUTD_STELLAR_MAX_FEE", stellar.DefaultMaxFee),
		"most a payout's transaction offers per operation, in stroops; the bid is a percentile of recent fees, raised after the network refuses one (env PAYOUTD_STELLAR_MAX_FEE)")
	fs.IntVar(&f.feePct, "stellar-fee-percentile", int(int64Env(getenv, "PAYOUTD_STELLAR_FEE_PERCENTILE", stellar.DefaultFeePercentile)),
		"which percentile of the fees recent ledgers included to bid (getFeeStats): 10, 20, …, 90, 95 or 99 (env PAYOUTD_STELLAR_FEE_PERCENTILE)")
	fs.DurationVar(&f.syncInterval, "stellar-sync-interval", durationEnv(getenv, "PAYOUTD_STELLAR_SYNC_INTERVAL", stellar.DefaultSyncInterval), "how often live vaults are compared with their accounts on chain (env PAYOUTD_STELLAR_SYNC_INTERVAL)")
}

func int64Env(getenv func(string) string, key string, def int64) int64 {
	if n, err := strconv.ParseInt(getenv(key), 10, 64); err == nil {
		return n
	}
	return def
}

// boolEnv reads a boolean variable as the flag package does (1, t, true,
// 0, f, false, any case); checkEnvFlags refuses anything else.
func boolEnv(getenv func(string) string, key string) bool {
	b, _ := strconv.ParseBool(getenv(key))
	return b
}

// intEnv reads an integer variable; an unset or unparsable one is def.
func intEnv(getenv func(string) string, key string, def int) int {
	if n, err := strconv.Atoi(getenv(key)); err == nil {
		return n
	}
	return def
}

func durationEnv(getenv func(string) string, key string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(getenv(key)); err == nil {
		return d
	}
	return def
}

// newLiveRail builds the Stellar rail, or nil without -stellar-rpc. The
// database's live books are bound to one network and one asset per
// currency (recorded at the first live start): another refuses the start,
// naming both. So does an RPC server serving another network than
// configured. An unreachable server does not: serve starts, live confirms
// answer 503 and /readyz says why until it answers. A clock off the
// network's is logged. Its RPC calls are counted by m (nil: none). f must
// have passed check.
func newLiveRail(ctx context.Context, f stellarFlags, db *store.DB, sealer *store.Sealer, src *liveRates, m *metrics.Metrics, log *slog.Logger) (*stellar.Rail, error) {
	if f.rpc == "" {
		return nil, nil
	}
	if err := f.bind(ctx, db); err != nil {
		return nil, err
	}
	client := &http.Client{Timeout: 15 * time.Second, Transport: m.RPCTransport(nil)}
	rail := &stellar.Rail{DB: db, Sealer: sealer, RPCURL: f.rpc, HTTP: client,
		Passphrase: f.passphrase, Assets: f.parsed, TxTimeout: f.txTimeout, Now: time.Now, Log: log,
		Rate: src.Rate, MaxFee: f.maxFee, FeePercentile: f.feePct}
	checked := rail.CheckNetwork(ctx)
	if errors.Is(checked, stellar.ErrWrongNetwork) {
		return nil, checked
	}
	used, err := usedAssets(ctx, db, f.parsed)
	if err != nil {
		return nil, err
	}
	if err := db.WithTx(ctx, func(tx *store.Tx) error { return tx.Chain().BindNetwork(f.passphrase, used) }, store.WithActor("cli", "")); err != nil {
		return nil, err
	}
	switch err := checked; {
	case err != nil:
		log.Warn("the Stellar RPC server does not answer; live confirms answer 503 until it does", "rpc", f.rpc, "error", err.Error())
	default:
		if skew, err := rail.ClockSkew(ctx); err == nil && (skew > stellar.MaxClockSkew || skew < -stellar.MaxClockSkew) {
			log.Warn("this machine's clock is off the Stellar network's (the latest ledger's close time); time bounds follow the network's, "+
				"but sync the clock (NTP)", "skew", skew.String())
		}
	}
	log.Info("live rail", "network", rail.NetworkName(), "rpc", f.rpc, "assets", f.parsed.String())
	return rail, nil
}

// bind makes the rail's network and assets those the database's live books
// are bound to. One not given follows the database; one given that differs
// is refused, naming both: testnet money must never reach live books, nor
// one issuer's dollars be counted as another's.
func (f *stellarFlags) bind(ctx context.Context, db *store.DB) error {
	passphrase, assets, err := db.Chain().BoundNetwork(ctx)
	if err != nil || passphrase == "" {
		return err
	}
	if passphrase != f.passphrase {
		if !f.defaultNetwork {
			return fmt.Errorf("-stellar-network (or PAYOUTD_STELLAR_NETWORK) names %q, but this database's live books are on the Stellar network %q: "+
				"leave it out or give %q, or use a new database for the other network", f.passphrase, passphrase, passphrase)
		}
		f.passphrase = passphrase
		if f.parsed, err = stellar.ParseAssets(passphrase, f.assets); err != nil {
			return err
		}
	}
	given, err := stellar.ParseAssets("", f.assets)
	if err != nil {
		return err
	}
	for c, a := range assets {
		if g, ok := given[c]; ok && (g.Code != a.Code || g.Issuer != a.Issuer) {
			return fmt.Errorf("-stellar-assets maps %s to %s:%s, but this database's live %s vaults hold the Stellar asset %s: "+
				"leave it out or give %s=%s, or use a new database for the other asset", c, g.Code, g.Issuer, c, a, c, a)
		}
		f.parsed[c] = txnbuild.CreditAsset{Code: a.Code, Issuer: a.Issuer}
	}
	return nil
}

// readOnlyRail is a rail for an operator's command: bound to the
// database's network and assets, checked to be talking to that network,
// with no signing key. f must have passed check.
func (f *stellarFlags) readOnlyRail(ctx context.Context, db *store.DB, stderr io.Writer) (*stellar.Rail, error) {
	if err := f.bind(ctx, db); err != nil {
		return nil, err
	}
	log, err := logger("warn", stderr)
	if err != nil {
		return nil, err
	}
	rail := &stellar.Rail{DB: db, RPCURL: f.rpc, HTTP: &http.Client{Timeout: 15 * time.Second},
		Passphrase: f.passphrase, Assets: f.parsed, TxTimeout: f.txTimeout, Now: time.Now, Log: log}
	if err := rail.CheckNetwork(ctx); err != nil {
		return nil, err
	}
	return rail, nil
}

// usedAssets is the part of the mapping whose currencies have live
// vaults: the books are bound only to assets they have used.
func usedAssets(ctx context.Context, db *store.DB, a stellar.Assets) (map[string]store.LiveAsset, error) {
	currencies, err := db.Chain().LiveCurrencies(ctx)
	if err != nil {
		return nil, err
	}
	all, used := a.Bound(), map[string]store.LiveAsset{}
	for _, c := range currencies {
		if as, ok := all[c]; ok {
			used[c] = as
		}
	}
	return used, nil
}

// rateFlags configure the live INR rates.
type rateFlags struct {
	url     string
	refresh time.Duration
	maxAge  time.Duration
}

func (f *rateFlags) register(fs *flag.FlagSet, getenv func(string) string) {
	fs.StringVar(&f.url, "rates-url", getenv("PAYOUTD_RATES_URL"), "URL of a rates document (the -rates JSON with asOf), fetched every -rates-refresh (env PAYOUTD_RATES_URL)")
	fs.DurationVar(&f.refresh, "rates-refresh", durationEnv(getenv, "PAYOUTD_RATES_REFRESH", time.Hour), "how often -rates-url is fetched (env PAYOUTD_RATES_REFRESH)")
	fs.DurationVar(&f.maxAge, "rates-max-age", durationEnv(getenv, "PAYOUTD_RATES_MAX_AGE", rates.DefaultMaxAge), "oldest rate a live payout is valued at; older, its INR value waits (env PAYOUTD_RATES_MAX_AGE)")
}

// check validates the live rates' flags, so serve refuses a bad one
// before it touches the database.
func (f rateFlags) check() error {
	if f.maxAge <= 0 {
		return fmt.Errorf("-rates-max-age %s: must be positive", f.maxAge)
	}
	if f.url != "" && f.refresh < time.Second {
		return fmt.Errorf("-rates-refresh %s: at least 1s", f.refresh)
	}
	return nil
}

// liveRates is the live rate source as the pipeline and the rail ask it.
type liveRates struct{ *rates.Source }

// Rate is the quote as of at, or why there is none.
func (l liveRates) Rate(currency string, at time.Time) (money.Rate, time.Time, error) {
	q, err := l.QuoteAt(currency, at)
	return q.Rate, q.AsOf, err
}

// Status is the rates' line in /readyz.
func (l liveRates) Status() (any, bool) { return l.Source.Status() }

// newLiveRates loads -rates FILE, watching it for changes, and starts
// fetching -rates-url. A live
// process never falls back to the sandbox's indicative table: with no
// fresh rate a settled payout waits for its value and /readyz says so.
func newLiveRates(ctx context.Context, file string, f rateFlags, log *slog.Logger) (*liveRates, error) {
	src := &rates.Source{MaxAge: f.maxAge, Now: time.Now}
	switch t := strings.TrimSpace(file); {
	case strings.HasPrefix(t, "{"):
		// Inline -rates: a bare object is as of now, when it was given.
		if err := src.Load([]byte(t), "-rates", time.Now()); err != nil {
			return nil, err
		}
	case t != "":
		if err := src.LoadFile(t); err != nil {
			return nil, err
		}
		// The file is read again when it changes, or at once on SIGHUP.
		hup := make(chan os.Signal, 1)
		signal.Notify(hup, syscall.SIGHUP)
		go func() {
			defer signal.Stop(hup)
			src.WatchFile(ctx, t, rates.FileCheck, hup, log)
		}()
	}
	if f.url != "" {
		client := &http.Client{Timeout: 30 * time.Second}
		go src.Poll(ctx, client, f.url, f.refresh, log)
	}
	return &liveRates{src}, nil
}

// keepRates adds live quotes to the rate history the GST values are taken
// from; a failure is logged, and the quote still serves the payouts.
func keepRates(ctx context.Context, db *store.DB, q map[string]rates.Quote, log *slog.Logger) {
	list := make([]store.Rate, 0, len(q))
	for c, v := range q {
		list = append(list, store.Rate{Currency: c, Rate: v.Rate.String(), AsOf: v.AsOf})
	}
	if err := db.WithTx(ctx, func(tx *store.Tx) error { return tx.Tax().RecordRates(true, list) }); err != nil {
		log.Warn("rates: could not keep the quotes in the rate history", "error", err.Error())
	}
}

// rateMemory is how far back a starting live process remembers the rates
// earlier runs kept: a payout settled while payoutd was down for up to that
// long is valued at the rate of its settlement.
const rateMemory = 90 * 24 * time.Hour

// rememberRates gives the live rate source the quotes earlier runs kept in
// the database.
func rememberRates(ctx context.Context, db *store.DB, live *liveRates) error {
	kept, err := db.Tax().RateHistory(ctx, true, time.Now().Add(-rateMemory))
	if err != nil {
		return err
	}
	for _, r := range kept {
		rate, err := money.ParseRate(r.Rate)
		if err != nil {
			return fmt.Errorf("rate history: %s as of %s: %w", r.Currency, r.AsOf.Format(time.RFC3339), err)
		}
		live.Remember(r.Currency, rates.Quote{Rate: rate, AsOf: r.AsOf})
	}
	return nil
}
