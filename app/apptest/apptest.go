// Package apptest is, for tests, what app.Open needs for a database file
// of a test's own: its path, the schema and a master key beside it.
// Production code never imports it.
package apptest

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/payoutd/payoutd/app"
	"github.com/payoutd/payoutd/internal/dbtemplate"
	"github.com/payoutd/payoutd/store"
)

// Config returns c with Path, Schema and Sealer set for a database
// payoutd.db in dir (a fresh temporary directory when dir is ""); the
// master key is created there, or read when a test reopens the directory.
// A fresh database is a copy of one migrated once per process.
func Config(t testing.TB, dir string, c app.Config) app.Config {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	_, here, _, _ := runtime.Caller(0)
	schema, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "..", "schema.sql"))
	if err != nil {
		t.Fatal(err)
	}
	sealer, err := store.LoadOrCreateMasterKey(filepath.Join(dir, "master.key"))
	if err != nil {
		t.Fatal(err)
	}
	c.Path, c.Schema, c.Sealer = filepath.Join(dir, "payoutd.db"), string(schema), sealer
	if _, err := os.Stat(c.Path); errors.Is(err, fs.ErrNotExist) {
		dbtemplate.Copy(t, c.Schema, c.Path, func(path string) error {
			db, err := store.Open(context.Background(), path, c.Schema)
			if err != nil {
				return err
			}
			return db.Close()
		})
	}
	return c
}

// Open opens c on a fresh database (Config) through the one wiring, and
// returns it with its sealer; the app is closed when the test ends.
func Open(t testing.TB, c app.Config) (*app.App, *store.Sealer) {
	t.Helper()
	c = Config(t, "", c)
	a, err := app.Open(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a, c.Sealer
}
