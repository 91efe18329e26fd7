package store

import (
	"context"
	"os"
	"path/filepath"
)

// BackupTo writes a consistent copy of the database into a new file dst
// (SQLite's VACUUM INTO: one read transaction, so the copy holds exactly
// what was committed when it began). The copy is written beside dst and
// renamed into place once synced, so dst is either absent or complete.
// It returns the copy's size.
func (db *DB) BackupTo(ctx context.Context, dst string) (int64, error) {
	dst, err := filepath.Abs(dst) // never a file: URI to SQLite
	if err != nil {
		return 0, err
	}
	partial := dst + ".partial"
	os.Remove(partial)
	defer os.Remove(partial)
	// Created empty and 0600 first (VACUUM INTO fills an empty file), so
	// the copy is never readable by others, not even while it is written.
	f, err := os.OpenFile(partial, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if _, err := db.r.ExecContext(ctx, "VACUUM INTO ?", partial); err != nil {
		return 0, err
	}
	info, err := f.Stat()
	if err == nil {
		err = f.Sync()
	}
	if err != nil {
		return 0, err
	}
	if err := os.Rename(partial, dst); err != nil {
		return 0, err
	}
	if d, err := os.Open(filepath.Dir(dst)); err == nil {
		d.Sync()
		d.Close()
	}
	return info.Size(), nil
}
