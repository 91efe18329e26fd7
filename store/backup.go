package store

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"

	_ "modernc.org/sqlite" // the "sqlite" driver for the backup connection
)

// Backup copies the database at src into a new file dst while other
// processes keep writing it (SQLite's VACUUM INTO: one read transaction,
// so the copy holds exactly what was committed when it began). The copy is
// written beside dst and renamed into place once synced, so dst is either
// absent or complete. It returns the copy's size.
func Backup(ctx context.Context, src, dst string) (int64, error) {
	// A plain connection, not Open: a backup must not migrate the file it
	// copies (a newer binary backing up before an upgrade).
	db, err := sql.Open("sqlite", "file:"+src+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	partial := dst + ".partial"
	os.Remove(partial)
	defer os.Remove(partial)
	if _, err := db.ExecContext(ctx, "VACUUM INTO ?", partial); err != nil {
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
