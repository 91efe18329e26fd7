package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/wire"
)

const vaultsUsage = "vaults: want release VAULT_ID --note TEXT [--payouts-checked] | resync VAULT_ID --from-ledger N -stellar-rpc URL"

// vaultsCmd is the operator's hand on a live vault: release a quarantined
// one after a person has looked (on an explorer, at the account's
// transactions), or read its movements again from an RPC server that
// keeps the ledgers payoutd missed.
func vaultsCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := newCommand("vaults", "vaults release VAULT_ID --note TEXT | resync VAULT_ID --from-ledger N [flags]",
		"release: releases a quarantined live vault once a person has looked at what payoutd found (payoutd check\n"+
			"and the wallet view say what). It is refused while a transfer out that payoutd did not make pays what a\n"+
			"payout of the vault still to be sent would (resolve that payout first: payoutd payouts resolve ID --paid\n"+
			"HASH), or while the vault's recorded movements have a gap. The sequence numbers found become ones payoutd\n"+
			"accounts for, and each transfer out no payout explains is booked as a withdrawal outside payoutd.\n"+
			"resync: reads the vault's movements again from ledger N on, from -stellar-rpc (a server that keeps\n"+
			"those ledgers), records those payoutd lacks (each once) and closes the vault's gap. Both are safe while\n"+
			"the server runs.", stdout, stderr)
	var c common
	c.register(cmd.FlagSet, getenv, false)
	var sf stellarFlags
	sf.register(cmd.FlagSet, getenv)
	note := cmd.String("note", "", "release: what the person found (required; recorded in the audit log and the vault.released event)")
	checked := cmd.Bool("payouts-checked", false, "release: release although payouts of the vault wait to be signed: none of them was paid by an unknown transaction")
	from := cmd.Int64("from-ledger", 0, "resync: the first ledger to read (at or before the gap payoutd shows)")
	positional, err := cmd.parse(args)
	if err != nil {
		return err
	}
	if len(positional) != 2 || (positional[0] != "release" && positional[0] != "resync") {
		return errors.New(vaultsUsage)
	}
	id := positional[1]
	if positional[0] == "resync" {
		return vaultsResync(ctx, c, sf, id, *from, stdout, stderr)
	}
	if strings.TrimSpace(*note) == "" {
		return errors.New("vaults release: --note TEXT is required: say what you found")
	}
	a, _, err := c.open(ctx, store.Write, false)
	if err != nil {
		return err
	}
	defer a.Close()
	db := a.DB
	q, open, err := db.Movements().OpenQuarantine(ctx, id)
	if err != nil {
		return err
	}
	if !open {
		return fmt.Errorf("vaults release: vault %s is not quarantined", id)
	}
	fmt.Fprintln(stdout, q.Describe())
	waiting, err := db.Movements().WaitingToSign(ctx, id)
	if err != nil {
		return err
	}
	if len(waiting) > 0 && !*checked {
		for _, p := range waiting {
			fmt.Fprintf(stdout, "  waits to be signed: %s %s %s to %s (memo %q)\n", p.ID, wire.Amount(p.Amount, p.Currency), p.Currency,
				p.DestinationAddress, p.Memo)
		}
		return fmt.Errorf("vaults release: %d payout(s) of %s will be signed once it is released; if a transaction payoutd does not know "+
			"paid one of them, resolve it first (payoutd payouts resolve ID --paid HASH); when none was, add --payouts-checked", len(waiting), id)
	}
	// The vault.released event's webhook deliveries are queued with the
	// release and sent by the server.
	var accepted []store.Movement
	err = db.WithTx(ctx, func(tx *store.Tx) error {
		q, accepted, err = payout.Release(tx, id, strings.TrimSpace(*note))
		return err
	}, store.WithActor("cli:vaults", ""))
	if err != nil {
		return fmt.Errorf("vaults release: %w", err)
	}
	fmt.Fprintf(stdout, "%s released (quarantine %s): sequence numbers up to %d are accounted for", id, q.ID, q.ChainSeq)
	if q.Shortfall > 0 && len(q.Reasons) > 0 && slices.Contains(q.Reasons, store.ReasonUnexplainedDebit) {
		fmt.Fprintf(stdout, "; a fall of up to %s %s will be booked as a withdrawal outside payoutd", wire.Amount(q.Shortfall, q.Currency), q.Currency)
	}
	fmt.Fprintln(stdout)
	for _, m := range accepted {
		fmt.Fprintf(stdout, "  booked as a withdrawal outside payoutd: %s %s to %s (transaction %s)\n", wire.Amount(m.Amount, m.Currency), m.Currency,
			m.Counterparty, m.TxHash)
	}
	return nil
}

// vaultsResync reads the vault's movements again from ledger from on.
func vaultsResync(ctx context.Context, c common, sf stellarFlags, id string, from int64, stdout, stderr io.Writer) error {
	if from <= 0 {
		return errors.New("vaults resync: --from-ledger N is required: the first ledger to read (payoutd check shows the gap)")
	}
	if sf.rpc == "" {
		return errors.New("vaults resync reads the network: give -stellar-rpc URL (env PAYOUTD_STELLAR_RPC), an RPC server that keeps the ledgers missed")
	}
	if err := sf.check(); err != nil {
		return err
	}
	a, _, err := c.open(ctx, store.Write, false)
	if err != nil {
		return err
	}
	defer a.Close()
	rail, err := sf.readOnlyRail(ctx, a.DB, stderr)
	if err != nil {
		return err
	}
	res, err := rail.Resync(ctx, id, from)
	if err != nil {
		return fmt.Errorf("vaults resync %s: %w", id, err)
	}
	fmt.Fprintf(stdout, "%s: read ledgers %d to %d, %d movement(s) recorded now\n", id, res.From, res.Through, res.Recorded)
	switch {
	case res.Track.Gap():
		fmt.Fprintf(stdout, "  a gap remains: ledgers %d to %d\n", res.Track.GapFrom, res.Track.GapTo)
	case res.Track.MismatchStroops != 0:
		fmt.Fprintf(stdout, "  the balance on the network still differs from the movements by %d stroops at ledger %d: read from an earlier ledger\n",
			res.Track.MismatchStroops, res.Track.CheckedLedger)
	default:
		fmt.Fprintln(stdout, "  every movement is recorded and adds up to the balance on the network")
	}
	if res.Quarantine != nil {
		fmt.Fprintln(stdout, "  "+res.Quarantine.Describe())
	}
	return nil
}
