// Command payoutd is a self-hosted payout server for Indian solo
// freelancers: two-step payouts, double-entry books, FIRA, tax figures.
package main

import (
	"context"
	"embed"
	_ "embed"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

//go:embed schema.sql
var schemaSQL string

//go:embed static
var staticFS embed.FS

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "payoutd:", err)
		os.Exit(1)
	}
}

// run dispatches the subcommand; tests call it directly.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := "serve"
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return serve(ctx, args, getenv, stdout, stderr)
	case "keys":
		return keysCmd(ctx, args, getenv, stdout, stderr)
	case "review":
		return reviewCmd(ctx, args, getenv, stdout, stderr)
	case "kyc":
		return kycCmd(ctx, args, getenv, stdout, stderr)
	case "check":
		return checkCmd(ctx, args, getenv, stdout, stderr)
	case "migrate":
		return migrateCmd(ctx, args, getenv, stdout, stderr)
	case "bench":
		return benchCmd(ctx, args, getenv, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	return fmt.Errorf("unknown command %q\n%s", cmd, usage)
}

const usage = `usage:
  payoutd [serve]  [-addr :8080] [-db payoutd.db] [-base-url URL] [-mode sandbox|live]
  payoutd keys create --email E [--name N] [--env sandbox|production] [--scopes a,b|all]
  payoutd keys list --email E [--env sandbox|production] | rotate KEY_ID | revoke KEY_ID
  payoutd review approve|reject PAYMENT_ID [--reason TEXT]
  payoutd kyc list [--status S] | show USER | documents USER --out DIR | approve|reject USER [--reason TEXT]
  payoutd check       verify ledger invariants and the audit hash chain
  payoutd migrate     apply schema changes and exit
  payoutd bench [-duration 10s] [-json]   loopback load run; prints storage, API, pipeline and read-path figures
`
