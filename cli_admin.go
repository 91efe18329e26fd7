package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/payoutd/payoutd/jobs"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/store"
)

func reviewCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) < 2 || (args[0] != "approve" && args[0] != "reject") {
		return errors.New("review: want approve|reject PAYMENT_ID [--reason TEXT]")
	}
	decision, id := args[0], args[1]
	var c common
	fs := flag.NewFlagSet("review", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c.register(fs, getenv)
	reason := fs.String("reason", "", "why (recorded in the audit log and, on reject, failedReason)")
	if _, err := parseInterleaved(fs, args[2:]); err != nil {
		return err
	}
	db, _, err := c.open(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	// An insert-only River client: the running server's workers pick the job up.
	if _, err := jobs.NewClient(db, &payout.Pipeline{DB: db}, jobs.ClientConfig{}); err != nil {
		return err
	}
	var p store.Payment
	err = db.WithTx(ctx, func(tx *store.Tx) error {
		p, err = payout.Review(tx, "", id, decision == "approve", *reason)
		return err
	}, store.WithActor("cli:review", ""))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s %s\n", p.ID, p.Status)
	return nil
}

func checkCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	db, err := openForCommand(ctx, "check", args, getenv, stderr)
	if err != nil {
		return err
	}
	defer db.Close()
	problems, err := db.Check(ctx)
	if err != nil {
		return err
	}
	for _, p := range problems {
		fmt.Fprintln(stdout, "FAIL", p)
	}
	if len(problems) > 0 {
		return fmt.Errorf("check found %d problem(s)", len(problems))
	}
	fmt.Fprintln(stdout, "ok: audit chain intact, books balanced")
	return nil
}

func migrateCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	db, err := openForCommand(ctx, "migrate", args, getenv, stderr)
	if err != nil {
		return err
	}
	defer db.Close()
	fmt.Fprintf(stdout, "schema at version %d\n", store.SchemaVersion)
	return nil
}

// openForCommand parses the common flags of a subcommand that takes no
// others and opens the database (applying the schema, as every start does).
func openForCommand(ctx context.Context, name string, args []string, getenv func(string) string, stderr io.Writer) (*store.DB, error) {
	var c common
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	c.register(fs, getenv)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	db, _, err := c.open(ctx)
	return db, err
}
