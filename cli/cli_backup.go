package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/payoutd/payoutd/store"
)

func backupCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := newCommand("backup", "backup --out FILE [flags]",
		"Writes a consistent copy of the database to FILE while the server keeps running (SQLite's VACUUM INTO:\n"+
			"one read transaction, so the copy holds exactly what was committed when it began). FILE must not exist;\n"+
			"its directory must. The database is opened read-only and left as it was.\n"+
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
	if err := checkBackupTarget(*out); err != nil {
		return err
	}
	a, _, err := c.open(ctx, store.Copy, false)
	if err != nil {
		return err
	}
	defer a.Close()
	n, err := a.DB.BackupTo(ctx, *out)
	if err != nil {
		return fmt.Errorf("backup of %s: %w", c.db, err)
	}
	fmt.Fprintf(stdout, "backed up %s to %s (%d bytes)\n", c.db, *out, n)
	return nil
}

// checkBackupTarget refuses, before the database is touched, a target
// that exists or whose directory does not.
func checkBackupTarget(out string) error {
	if _, err := os.Lstat(out); !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("backup: %s already exists; choose a new file", out)
	}
	dir := filepath.Dir(out)
	switch info, err := os.Stat(dir); {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("backup: the directory %s does not exist; create it first (mkdir -p %s)", dir, dir)
	case err != nil:
		return fmt.Errorf("backup: %w", err)
	case !info.IsDir():
		return fmt.Errorf("backup: %s is not a directory", dir)
	}
	return nil
}
