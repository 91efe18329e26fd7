package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/stellar/go-stellar-sdk/clients/rpcclient"

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
}

func (f *stellarFlags) register(fs *flag.FlagSet, getenv func(string) string) {
	fs.StringVar(&f.rpc, "stellar-rpc", getenv("PAYOUTD_STELLAR_RPC"), "Stellar RPC server URL for live payouts, e.g. https://soroban-testnet.stellar.org (env PAYOUTD_STELLAR_RPC)")
	fs.StringVar(&f.network, "stellar-network", envOr(getenv, "PAYOUTD_STELLAR_NETWORK", "testnet"), "testnet, pubnet or a network passphrase; the RPC server must serve it (env PAYOUTD_STELLAR_NETWORK)")
	fs.StringVar(&f.assets, "stellar-assets", getenv("PAYOUTD_STELLAR_ASSETS"), "vault currency → Stellar asset over the network's defaults (Circle's USDC and EURC), e.g. USD=USDC:G…,EUR=EURC:G… (env PAYOUTD_STELLAR_ASSETS)")
	fs.DurationVar(&f.txTimeout, "stellar-tx-timeout", durationEnv(getenv, "PAYOUTD_STELLAR_TX_TIMEOUT", stellar.DefaultTxTimeout), "upper time bound of a payout's transaction (env PAYOUTD_STELLAR_TX_TIMEOUT)")
	fs.DurationVar(&f.syncInterval, "stellar-sync-interval", durationEnv(getenv, "PAYOUTD_STELLAR_SYNC_INTERVAL", stellar.DefaultSyncInterval), "how often live vaults are compared with their accounts on chain (env PAYOUTD_STELLAR_SYNC_INTERVAL)")
}

func durationEnv(getenv func(string) string, key string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(getenv(key)); err == nil {
		return d
	}
	return def
}

// newLiveRail builds the Stellar rail, or nil without -stellar-rpc. The RPC
// server must serve the configured network: a different passphrase refuses
// the start, naming both. An unreachable server does not: serve starts,
// live confirms answer 503 and /readyz says why until it answers.
func newLiveRail(ctx context.Context, f stellarFlags, db *store.DB, sealer *store.Sealer, table rates.Table, log *slog.Logger) (*stellar.Rail, error) {
	if f.rpc == "" {
		return nil, nil
	}
	passphrase, err := stellar.Passphrase(f.network)
	if err != nil {
		return nil, err
	}
	assets, err := stellar.ParseAssets(passphrase, f.assets)
	if err != nil {
		return nil, err
	}
	if f.txTimeout < 10*time.Second {
		return nil, fmt.Errorf("-stellar-tx-timeout %s: a transaction needs at least 10s to reach a ledger", f.txTimeout)
	}
	if f.syncInterval < time.Second {
		return nil, fmt.Errorf("-stellar-sync-interval %s: at least 1s", f.syncInterval)
	}
	rail := &stellar.Rail{DB: db, Sealer: sealer, RPC: rpcclient.NewClient(f.rpc, &http.Client{Timeout: 15 * time.Second}),
		Passphrase: passphrase, Assets: assets, TxTimeout: f.txTimeout, Now: time.Now, Log: log,
		Rate: func(currency string) (money.Rate, error) {
			r, ok := table[currency]
			if !ok {
				return r, fmt.Errorf("no INR rate for %s", currency)
			}
			return r, nil
		}}
	switch err := rail.CheckNetwork(ctx); {
	case errors.Is(err, stellar.ErrWrongNetwork):
		return nil, err
	case err != nil:
		log.Warn("the Stellar RPC server does not answer; live confirms answer 503 until it does", "rpc", f.rpc, "error", err.Error())
	}
	log.Info("live rail", "network", rail.NetworkName(), "rpc", f.rpc, "assets", assets.String())
	return rail, nil
}
