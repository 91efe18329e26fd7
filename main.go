// Command payoutd is a self-hosted payout server for Indian solo
// freelancers: two-step payouts, double-entry books, FIRA, tax figures.
package main

import (
	"context"
	_ "embed"
	"os"
	"os/signal"
	"syscall"

	"github.com/payoutd/payoutd/cli"
)

//go:embed schema.sql
var schemaSQL string

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, schemaSQL, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
