package store

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// CheckMasterKey refuses, before anything else is done, a master key file
// that exists but cannot be used (readable by others, not 32 bytes); a
// missing one is no error here.
func CheckMasterKey(path string) error {
	_, err := readMasterKey(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("master key %s: %w", path, err)
	}
	return nil
}

// readMasterKey reads the key at path. A key that group or others may read
// is refused, with the chmod that fixes it: it opens every vault's signing
// key.
func readMasterKey(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("mode %04o lets other users read it, and it opens every vault's signing key: run chmod 600 %s (or 400)", perm, path)
	}
	key, err := io.ReadAll(io.LimitReader(f, 64))
	if err != nil {
		return nil, err
	}
	if len(key) != 32 {
		return nil, fmt.Errorf("want 32 bytes, have %d (a key must be 32 random bytes: head -c 32 /dev/urandom)", len(key))
	}
	return key, nil
}

// createMasterKey writes a new random key at path, whole or not at all: it
// is written and synced under a temporary name beside path, then linked to
// path (which fails if another process made one meanwhile) and the
// directory synced. A failure (a full disk) leaves no key behind.
func createMasterKey(path string) ([]byte, error) {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".new-*")
	if err != nil {
		return nil, fmt.Errorf("create: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(key)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("write: %w", err)
	}
	if err := os.Link(tmp.Name(), path); errors.Is(err, fs.ErrExist) {
		return readMasterKey(path) // another process made it first
	} else if err != nil {
		return nil, fmt.Errorf("create: %w", err)
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
	return key, nil
}
