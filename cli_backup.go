package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/payoutd/payoutd/store"
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
	n, err := store.Backup(ctx, c.db, *out)
	if err != nil {
		return fmt.Errorf("backup of %s: %w", c.db, err)
	}
	fmt.Fprintf(stdout, "backed up %s to %s (%d bytes)\n", c.db, *out, n)
	return nil
}
