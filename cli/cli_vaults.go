package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/wire"
)

const vaultsUsage = "vaults: want release VAULT_ID --note TEXT [--payouts-checked]"

// vaultsCmd is the operator's release of a quarantined live vault: one
// whose account used a sequence number payoutd never stored, or whose
// balance fell by more than payoutd sent. It signs nothing until a person
// has looked (on an explorer, at the account's transactions) and releases
// it here.
func vaultsCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := newCommand("vaults", "vaults release VAULT_ID --note TEXT [flags]",
		"Releases a quarantined live vault once a person has looked at the transactions payoutd does not know\n"+
			"(payoutd check and the wallet view say what was found). The sequence numbers found become ones\n"+
			"payoutd accounts for, and the next chain sync books a fall of up to the shortfall found as a withdrawal\n"+
			"outside payoutd; anything else that changed is judged afresh. Payouts of the vault still to be signed\n"+
			"are signed after the release: if an unknown transaction paid one of them, resolve it first\n"+
			"(payoutd payouts resolve), or it is paid twice. Safe while the server runs.", stdout, stderr)
	var c common
	c.register(cmd.FlagSet, getenv, false)
	note := cmd.String("note", "", "what the person found (required; recorded in the audit log and the vault.released event)")
	checked := cmd.Bool("payouts-checked", false, "release although payouts of the vault wait to be signed: none of them was paid by an unknown transaction")
	positional, err := cmd.parse(args)
	if err != nil {
		return err
	}
	if len(positional) != 2 || positional[0] != "release" {
		return errors.New(vaultsUsage)
	}
	id := positional[1]
	if strings.TrimSpace(*note) == "" {
		return errors.New("vaults release: --note TEXT is required: say what you found")
	}
	a, _, err := c.open(ctx, store.Write, false)
	if err != nil {
		return err
	}
	defer a.Close()
	db := a.DB
	q, open, err := db.OpenQuarantine(ctx, id)
	if err != nil {
		return err
	}
	if !open {
		return fmt.Errorf("vaults release: vault %s is not quarantined", id)
	}
	fmt.Fprintln(stdout, q.Describe())
	waiting, err := db.WaitingToSign(ctx, id)
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
	err = db.WithTx(ctx, func(tx *store.Tx) error {
		q, err = tx.ReleaseQuarantine(id, strings.TrimSpace(*note))
		return err
	}, store.WithActor("cli:vaults", ""))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s released (quarantine %s): sequence numbers up to %d are accounted for", id, q.ID, q.ChainSeq)
	if q.Shortfall > 0 {
		fmt.Fprintf(stdout, "; a fall of up to %s %s will be booked as a withdrawal outside payoutd", wire.Amount(q.Shortfall, q.Currency), q.Currency)
	}
	fmt.Fprintln(stdout)
	return nil
}
