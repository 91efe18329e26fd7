package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/store"
)

func reviewCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := newCommand("review", "review approve|reject PAYMENT_ID [flags]",
		"Resolves a payout waiting in MANUAL_REVIEW: approve sends it on, reject fails it. The running server's\n"+
			"workers carry it on.", stdout, stderr)
	var c common
	c.register(cmd.FlagSet, getenv, false)
	reason := cmd.String("reason", "", "why (recorded in the audit log and, on reject, failedReason)")
	positional, err := cmd.parse(args)
	if err != nil {
		return err
	}
	if len(positional) != 2 || (positional[0] != "approve" && positional[0] != "reject") {
		return fmt.Errorf("review: want approve|reject PAYMENT_ID (see payoutd review -h)")
	}
	decision, id := positional[0], positional[1]
	a, _, err := c.open(ctx, store.Write, false)
	if err != nil {
		return err
	}
	defer a.Close()
	db := a.DB
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
	cmd := newCommand("check", "check [flags]",
		"Verifies an existing database: first the file itself (SQLite's integrity_check, or the faster\n"+
			"quick_check with --quick, and foreign_key_check), then the audit log's hash chain, the ledger's balance invariants, and that\n"+
			"the master key opens every key and document it sealed (a restored copy with a missing or wrong key\n"+
			"fails here, not at the next start); lists every quarantined live vault with why. Opens the file\n"+
			"read-only: safe while the server runs, and the file is left as it was. Exits non-zero on any problem.", stdout, stderr)
	var c common
	c.register(cmd.FlagSet, getenv, true)
	quick := cmd.Bool("quick", false, "check the file with SQLite's quick_check (every page, not every index entry) instead of integrity_check")
	if err := cmd.parseNone(args); err != nil {
		return err
	}
	a, sealer, err := c.open(ctx, store.Read, true)
	if err != nil {
		return err
	}
	defer a.Close()
	db := a.DB
	if err := db.RequireSchema(ctx); err != nil {
		return err
	}
	damage, err := db.Health().CheckFile(ctx, *quick)
	if err != nil {
		return err
	}
	if len(damage) > 0 {
		for _, p := range damage {
			fmt.Fprintln(stdout, "FAIL", p)
		}
		return fmt.Errorf("check found %d problem(s) in the file %s itself: do not serve it; restore a sound copy", len(damage), c.db)
	}
	problems, err := db.Health().Check(ctx)
	if err != nil {
		return err
	}
	opened, sealProblems, err := db.Health().CheckSealed(ctx, sealer)
	if err != nil {
		return err
	}
	problems = append(problems, sealProblems...)
	for _, p := range problems {
		fmt.Fprintln(stdout, "FAIL", p)
	}
	if len(sealProblems) > 0 {
		fmt.Fprintf(stdout, "the master key %s does not open what this database sealed: restore the key the database was created with\n", c.keyPath())
	}
	if len(problems) > 0 {
		return fmt.Errorf("check found %d problem(s) in %s", len(problems), c.db)
	}
	fmt.Fprintf(stdout, "ok: audit chain intact, books balanced; the master key opens all %d sealed items; %s finds the file sound\n",
		opened, map[bool]string{false: "integrity_check", true: "quick_check"}[*quick])
	return nil
}

func migrateCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := newCommand("migrate", "migrate [flags]",
		"Creates the database, or brings an older one to this binary's schema, and exits. serve does the same\n"+
			"at every start; a database from a newer binary is refused.", stdout, stderr)
	var c common
	c.register(cmd.FlagSet, getenv, true)
	if err := cmd.parseNone(args); err != nil {
		return err
	}
	a, _, err := c.open(ctx, store.Serve, false)
	if err != nil {
		return err
	}
	defer a.Close()
	fmt.Fprintf(stdout, "schema at version %d\n", store.SchemaVersion)
	return nil
}
