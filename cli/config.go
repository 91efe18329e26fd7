package cli

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

// noDB is how every admin command refuses a path with no database.
func (c *common) noDB() error {
	return fmt.Errorf("no payoutd database at %s (check -db or PAYOUTD_DB; `payoutd serve` or `payoutd migrate` creates one)", c.db)
}

// open opens the database for access, wired by app.Open as an
// insert-only process (its jobs run in the server), and, when withKey, the
// master key (a new database always gets its key at once). Only
// store.Serve (serve, migrate) creates a missing database; the others
// refuse it, so a typo in -db is an error, not a fresh empty file.
func (c *common) open(ctx context.Context, access store.Access, withKey bool) (*app.App, *store.Sealer, error) {
	return c.openApp(ctx, access, withKey, app.Config{})
}

// openApp is open with the rest of cfg (serve's workers, rails, webhooks).
// The file is locked first (store.Lock: the one scheme every command takes
// part in, so no command through another path can damage a served file),
// then the master key is loaded, then the file is opened.
func (c *common) openApp(ctx context.Context, access store.Access, withKey bool, cfg app.Config) (*app.App, *store.Sealer, error) {
	exists, err := checkDBFile(c.db)
	if err != nil {
		return nil, nil, err
	}
	if !exists && access != store.Serve {
		return nil, nil, c.noDB()
	}
	if withKey || !exists {
		if err := store.CheckMasterKey(c.keyPath()); err != nil {
			return nil, nil, err
		}
	}
	lock, err := store.Lock(c.db, access)
	if err != nil {
		return nil, nil, err
	}
	var sealer *store.Sealer
	if withKey || !exists {
		if sealer, err = c.openKey(!exists); err != nil {
			lock.Release()
			return nil, nil, err
		}
	}
	cfg.Path, cfg.Schema, cfg.Sealer, cfg.Lock = c.db, schemaSQL, sealer, lock
	a, err := app.Open(ctx, cfg)
	if err != nil {
		lock.Release()
		if !strings.Contains(err.Error(), c.db) {
			err = fmt.Errorf("database %s: %w", c.db, err)
		}
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
