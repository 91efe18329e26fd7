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
	partial := dst + ".partial"
	os.Remove(partial)
	defer os.Remove(partial)
	if _, err := db.r.ExecContext(ctx, "VACUUM INTO ?", partial); err != nil {
		return 0, err
	}
	f, err := os.OpenFile(partial, os.O_RDWR, 0)
	if err != nil {
		return 0, err
	}
	info, err := f.Stat()
	if err == nil {
		err = f.Chmod(0o600)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
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
