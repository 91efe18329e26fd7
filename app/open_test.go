package app_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/payoutd/payoutd/app"
	"github.com/payoutd/payoutd/store"
)

// openApp opens a fresh database in a temporary directory through the one
// wiring, with c's other fields as given; it is closed when the test ends.
func openApp(t *testing.T, c app.Config) (*app.App, *store.Sealer) {
	t.Helper()
	dir := t.TempDir()
	schema, err := os.ReadFile(filepath.Join("..", "schema.sql"))
	if err != nil {
		t.Fatal(err)
	}
	sealer, err := store.LoadOrCreateMasterKey(filepath.Join(dir, "master.key"))
	if err != nil {
		t.Fatal(err)
	}
	c.Path, c.Schema, c.Sealer = filepath.Join(dir, "payoutd.db"), string(schema), sealer
	a, err := app.Open(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a, sealer
}
