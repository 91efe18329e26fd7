package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/payoutd/payoutd/app"
	"github.com/payoutd/payoutd/input"
	"github.com/payoutd/payoutd/store"
)

// common are the flags the database commands share.
type common struct {
	db        string
	masterKey string
}

// register adds -db and, for commands that unseal keys, -master-key.
func (c *common) register(fs *flag.FlagSet, getenv func(string) string, withKey bool) {
	fs.StringVar(&c.db, "db", envOr(getenv, "PAYOUTD_DB", "payoutd.db"), "SQLite database file (env PAYOUTD_DB)")
	if withKey {
		fs.StringVar(&c.masterKey, "master-key", getenv("PAYOUTD_MASTER_KEY"), "master key file sealing vault and token keys (default <db>.masterkey; env PAYOUTD_MASTER_KEY)")
	}
}

func envOr(getenv func(string) string, key, def string) string {
	if v := getenv(key); v != "" {
		return v
	}
	return def
}

// openMode says what a command may do to the files it opens.
type openMode int

const (
	// existingDB refuses a path with no database: admin commands never
	// create one, so a typo in -db is an error, not a fresh empty file.
	existingDB openMode = iota
	// createDB is serve and migrate: a missing file becomes a new database.
	createDB
)

// sqliteHeader starts every SQLite database file.
const sqliteHeader = "SQLite format 3\x00"

// checkDBFile reports whether path holds a database, and refuses a file
// that is something else.
func checkDBFile(path string) (exists bool, err error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("database %s: %w", path, err)
	}
	defer f.Close()
	head := make([]byte, len(sqliteHeader))
	n, err := io.ReadFull(f, head)
	if n == 0 && (err == io.EOF || err == nil) {
		return false, nil // empty: SQLite treats it as a new database
	}
	if err != nil || string(head) != sqliteHeader {
		return false, fmt.Errorf("%s is not a SQLite database", path)
	}
	return true, nil
}

func (c *common) keyPath() string {
	if c.masterKey != "" {
		return filepath.Clean(c.masterKey)
	}
	return c.db + ".masterkey"
}

// openKey loads the master key. A new one is made only beside a new
// database: an existing database's vault and token keys are sealed with
// the key it was created with, and a fresh key could never open them.
func (c *common) openKey(newDB bool) (*store.Sealer, error) {
	path := c.keyPath()
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) && !newDB {
		return nil, fmt.Errorf("master key %s not found, but the database %s exists and its vault and token keys are sealed with one: "+
			"point -master-key (PAYOUTD_MASTER_KEY) at it or restore it from your backup", path, c.db)
	}
	sealer, err := store.LoadOrCreateMasterKey(path)
	if err != nil {
		return nil, fmt.Errorf("master key %s: %w", path, err)
	}
	return sealer, nil
}

// requireDB refuses a path with no database, for a command that reads
// the file without opening it through open (backup).
func (c *common) requireDB() error {
	exists, err := checkDBFile(c.db)
	if err == nil && !exists {
		err = c.noDB()
	}
	return err
}

// noDB is how every admin command refuses a path with no database.
func (c *common) noDB() error {
	return fmt.Errorf("no payoutd database at %s (check -db or PAYOUTD_DB; `payoutd serve` or `payoutd migrate` creates one)", c.db)
}

// open opens the database, wired by app.Open as an insert-only process
// (its jobs run in the server), and, when withKey, the master key (a new
// database always gets its key at once). With existingDB a missing
// database is an error and nothing is created.
func (c *common) open(ctx context.Context, mode openMode, withKey bool) (*app.App, *store.Sealer, error) {
	return c.openApp(ctx, mode, withKey, app.Config{})
}

// openApp is open with the rest of cfg (serve's workers, rails, webhooks).
func (c *common) openApp(ctx context.Context, mode openMode, withKey bool, cfg app.Config) (*app.App, *store.Sealer, error) {
	exists, err := checkDBFile(c.db)
	if err != nil {
		return nil, nil, err
	}
	if !exists && mode == existingDB {
		return nil, nil, c.noDB()
	}
	var sealer *store.Sealer
	if withKey || (!exists && mode == createDB) {
		if sealer, err = c.openKey(!exists); err != nil {
			return nil, nil, err
		}
	}
	cfg.Path, cfg.Schema, cfg.Sealer = c.db, schemaSQL, sealer
	a, err := app.Open(ctx, cfg)
	if err != nil && !strings.Contains(err.Error(), c.db) {
		err = fmt.Errorf("database %s: %w", c.db, err)
	}
	if err != nil {
		return nil, nil, err
	}
	return a, sealer, nil
}

// logger writes JSON logs to stderr at level; stdout is kept for what a
// command prints.
func logger(level string, stderr io.Writer) (*slog.Logger, error) {
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("-log-level: %w", err)
	}
	return slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: lvl})), nil
}

// parseScopes turns "a,b" or "all" into a checked scope list.
func parseScopes(s string) ([]string, error) {
	if s == "" {
		return store.AllScopes, nil
	}
	return input.CheckScopes(strings.Split(s, ","))
}
