package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"

	"github.com/payoutd/payoutd/store"
)

// common are the flags every subcommand shares.
type common struct {
	db        string
	masterKey string
	logLevel  string
}

func (c *common) register(fs *flag.FlagSet, getenv func(string) string) {
	fs.StringVar(&c.db, "db", envOr(getenv, "PAYOUTD_DB", "payoutd.db"), "SQLite database file (env PAYOUTD_DB)")
	fs.StringVar(&c.masterKey, "master-key", getenv("PAYOUTD_MASTER_KEY"), "master key file sealing vault keys (default: <db>.masterkey; env PAYOUTD_MASTER_KEY)")
	fs.StringVar(&c.logLevel, "log-level", envOr(getenv, "PAYOUTD_LOG_LEVEL", "info"), "debug, info, warn or error (env PAYOUTD_LOG_LEVEL)")
}

func envOr(getenv func(string) string, key, def string) string {
	if v := getenv(key); v != "" {
		return v
	}
	return def
}

// open opens the database and the master key.
func (c *common) open(ctx context.Context) (*store.DB, *store.Sealer, error) {
	keyPath := c.masterKey
	if keyPath == "" {
		keyPath = c.db + ".masterkey"
	}
	sealer, err := store.LoadOrCreateMasterKey(filepath.Clean(keyPath))
	if err != nil {
		return nil, nil, err
	}
	db, err := store.Open(ctx, c.db, schemaSQL)
	if err != nil {
		return nil, nil, err
	}
	return db, sealer, nil
}

// logger writes JSON logs to stderr; stdout is kept for what a command prints.
func (c *common) logger(stderr io.Writer) (*slog.Logger, error) {
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(c.logLevel)); err != nil {
		return nil, fmt.Errorf("-log-level: %w", err)
	}
	return slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: lvl})), nil
}

// parseScopes turns "a,b" or "all" into a checked scope list.
func parseScopes(s string) ([]string, error) {
	if s == "" || s == "all" {
		return store.AllScopes, nil
	}
	var out []string
	for _, sc := range strings.Split(s, ",") {
		sc = strings.TrimSpace(sc)
		ok := false
		for _, known := range store.AllScopes {
			ok = ok || known == sc
		}
		if !ok {
			return nil, fmt.Errorf("unknown scope %q (known: %s)", sc, strings.Join(store.AllScopes, ", "))
		}
		out = append(out, sc)
	}
	return out, nil
}

// parseInterleaved parses flags that may come before or after positional
// arguments ("keys revoke KEY_ID -db x" and "keys revoke -db x KEY_ID").
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return positional, nil
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
