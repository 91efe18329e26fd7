// Package cli is payoutd's command line: the commands, their flags and
// environment, help, and the wiring of serve and the live rail.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
)

// schemaSQL is the newest schema, handed in by Main (the binary embeds
// schema.sql; this package's tests read the file).
var schemaSQL string

// Main runs the command args names (without the program's name) and
// answers the process's exit status. schema is the newest schema.sql.
// Every line a command writes to stderr is a JSON log record, its failure
// too: what a person reads (help, keys, lists) goes to stdout.
func Main(ctx context.Context, schema string, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	schemaSQL = schema
	paceGC(getenv)
	err := checkEnvNames(environ())
	if err == nil {
		err = run(ctx, args, getenv, stdout, stderr)
	}
	if err != nil {
		slog.New(slog.NewJSONHandler(stderr, nil)).Error("command failed", "command", commandName(args), "error", err.Error())
		return 1
	}
	return 0
}

// commandName is the command args run: serve unless the first argument
// names another.
func commandName(args []string) string {
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		return args[0]
	}
	return "serve"
}

// run dispatches the subcommand; tests call it directly. A help request
// (payoutd -h, payoutd help, payoutd CMD -h) prints to stdout and succeeds.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) > 0 && isHelp(args[0]) {
		if args[0] == "help" && len(args) > 1 && commands[args[1]] != nil {
			return run(ctx, []string{args[1], "-h"}, getenv, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return nil
	}
	name := commandName(args)
	if len(args) > 0 && args[0] == name {
		args = args[1:]
	}
	cmd := commands[name]
	if cmd == nil {
		return fmt.Errorf("unknown command %q (payoutd help lists the commands)", name)
	}
	err := cmd(ctx, args, getenv, stdout, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return nil
	}
	return err
}

type commandFunc func(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error

var commands map[string]commandFunc

func init() {
	commands = map[string]commandFunc{
		"serve": serve, "keys": keysCmd, "review": reviewCmd, "kyc": kycCmd, "check": checkCmd, "migrate": migrateCmd,
		"backup": backupCmd, "health": healthCmd, "bench": benchCmd, "console-link": consoleLinkCmd, "payouts": payoutsCmd, "vaults": vaultsCmd,
	}
}

const usage = `payoutd is a self-hosted payout server for Indian freelancers.

usage: payoutd [COMMAND] [flags]

commands:
  serve      run the server (the default command); creates the database on first start
  keys       create, list, rotate and revoke API keys
  review     approve or reject a payout waiting in MANUAL_REVIEW
  kyc        review live users' KYC: list, show, documents, approve, reject
  console-link  print a one-time sign-in link to the console (/console/) for a user
  payouts    finish what the machine cannot: list, show, resolve (paid or unpaid, with proof), retry
  check      verify the audit hash chain, the ledger's balance and the master key, list quarantined vaults; read-only
  migrate    create or upgrade the database schema and exit
  backup     write a consistent copy of the database while the server runs; read-only
  vaults     release a quarantined live vault once a person has looked
  health     exit 0 when a running server's /readyz answers ready
  bench      loopback load run: storage, API, pipeline and read-path figures
  help       this text; "payoutd help COMMAND" or "payoutd COMMAND -h" for a command's flags

Only serve and migrate create or migrate a database; the other commands refuse
a path that holds none. A command through another path (a hard link) to a file
in use is refused. Every flag with an env variable is listed by COMMAND -h.
`
