// Package dbtemplate gives each test a fresh, migrated database file
// without migrating one per test: the first request in a process builds
// the file once, later ones get a copy of its bytes. Migrating a new file
// (River's migrations rebuild tables, each reparsing the schema) costs far
// more than copying it. Production code never imports it.
package dbtemplate

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

var (
	mu    sync.Mutex
	built = map[string][]byte{}
)

// Copy writes to dst the database file build makes at the path it is
// given, built once per process for each key (what decides the file's
// content: the schema it was migrated to). build must close the file, so
// that everything is in it (no write-ahead log beside it).
func Copy(t testing.TB, key, dst string, build func(path string) error) {
	t.Helper()
	b, err := template(key, build)
	if err != nil {
		t.Fatalf("template database: %v", err)
	}
	if err := os.WriteFile(dst, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func template(key string, build func(path string) error) ([]byte, error) {
	mu.Lock()
	defer mu.Unlock()
	if b, ok := built[key]; ok {
		return b, nil
	}
	dir, err := os.MkdirTemp("", "payoutd-template-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "template.db")
	if err := build(path); err != nil {
		return nil, err
	}
	if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > 0 {
		return nil, fmt.Errorf("%s-wal holds %d bytes after build: the file was left open", path, fi.Size())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	built[key] = b
	return b, nil
}
