package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	_ "modernc.org/sqlite" // the "sqlite" driver for the backup connection
)

func backupCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := newCommand("backup", "backup --out FILE [flags]",
		"Writes a consistent copy of the database to FILE while the server keeps running (SQLite's VACUUM INTO:\n"+
			"one read transaction, so the copy holds exactly what was committed when it began). FILE must not exist.\n"+
			"The master key is not in the copy: back it up separately, once; without it a restored database\n"+
			"cannot open its vault and token keys.", stdout, stderr)
	var c common
	c.register(cmd.FlagSet, getenv, false)
	out := cmd.String("out", "", "the backup file to write (required; must not exist)")
	if err := cmd.parseNone(args); err != nil {
		return err
	}
	if *out == "" {
		return errors.New("backup: --out FILE is required")
	}
	if err := c.requireDB(); err != nil {
		return err
	}
	if _, err := os.Lstat(*out); !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("backup: %s already exists; choose a new file", *out)
	}
	n, err := backupTo(ctx, c.db, *out)
	if err != nil {
		return fmt.Errorf("backup of %s: %w", c.db, err)
	}
	fmt.Fprintf(stdout, "backed up %s to %s (%d bytes)\n", c.db, *out, n)
	return nil
}

// backupTo copies the database at src into a new file dst. The copy is
// written beside dst and renamed into place once synced, so dst is either
// absent or complete.
func backupTo(ctx context.Context, src, dst string) (int64, error) {
	// A plain connection, not store.Open: a backup must not migrate the
	// file it copies (a newer binary backing up before an upgrade).
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
