package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/stellar"
	"github.com/payoutd/payoutd/store"
)

const payoutsUsage = "payouts: want list [--status S | --expired --since T] | show ID | resolve ID --paid HASH|--unpaid | " +
	"retry ID… | retry --expired --since T | retry --stalled"

// payoutsFlags are the payouts command's flags.
type payoutsFlags struct {
	common
	stellar  stellarFlags
	status   string
	expired  bool
	since    string
	stalled  bool
	paid     string
	unpaid   bool
	operator string
	env      func() (string, bool, error)
}

// payoutsCmd is the operator's hand on payouts the machine cannot finish
// by itself: it lists them, shows one with its transactions and jobs,
// resolves one whose outcome the network proves, and sets failed, expired
// or stalled ones going again. It works beside a running server, whose
// workers take the jobs it queues; every move is audited with the operator
// as actor.
func payoutsCmd(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := newCommand("payouts", "payouts list|show|resolve|retry [ID…] [flags]",
		"Finishes what the machine cannot. list shows the payouts waiting for a person (UNKNOWN, in review, flagged by a\n"+
			"job that gave up, or owing a step with no job), or those in --status, or those that expired --since T.\n"+
			"show prints one with its transactions and jobs. resolve settles an UNKNOWN payout: --paid HASH when that\n"+
			"transaction is on the network from the vault with the payout's destination, amount and memo; --unpaid\n"+
			"when the network proves its transaction can never apply (both ask the -stellar-rpc server). retry sends\n"+
			"FAILED or PENDING payouts again and resumes stalled ones, by id or in bulk. Safe while the server runs;\n"+
			"its workers carry the payouts on.", stdout, stderr)
	var f payoutsFlags
	f.register(cmd, getenv)
	positional, err := cmd.parse(args)
	if err != nil {
		return err
	}
	if len(positional) == 0 {
		return errors.New(payoutsUsage)
	}
	sub, ids := positional[0], positional[1:]
	_, live, err := f.env()
	if err != nil {
		return err
	}
	// list and show only read; resolve and retry write beside the server,
	// which runs the jobs their moves queue.
	access := store.Write
	if sub == "list" || sub == "show" {
		access = store.Read
	}
	a, _, err := f.open(ctx, access, false)
	if err != nil {
		return err
	}
	defer a.Close()
	db := a.DB
	switch sub {
	case "list":
		if len(ids) > 0 {
			return errors.New(payoutsUsage)
		}
		return payoutsList(ctx, db, f, live, stdout)
	case "show":
		if len(ids) != 1 {
			return errors.New(payoutsUsage)
		}
		return payoutsShow(ctx, db, ids[0], stdout)
	case "resolve":
		if len(ids) != 1 || (f.paid == "") == !f.unpaid {
			return errors.New("payouts resolve: want ID and one of --paid HASH or --unpaid")
		}
		return payoutsResolve(ctx, db, f, ids[0], stdout, stderr)
	case "retry":
		return payoutsRetry(ctx, db, f, live, ids, stdout)
	}
	return errors.New(payoutsUsage)
}

func (f *payoutsFlags) register(cmd command, getenv func(string) string) {
	f.common.register(cmd.FlagSet, getenv, false)
	f.stellar.register(cmd.FlagSet, getenv)
	cmd.StringVar(&f.status, "status", "", "list: the payouts in this status")
	cmd.BoolVar(&f.expired, "expired", false, "list, retry: the payouts that failed because their transaction expired (with --since)")
	cmd.StringVar(&f.since, "since", "", "with --expired: failed at or after this time (RFC 3339, or a duration back from now such as 6h)")
	cmd.BoolVar(&f.stalled, "stalled", false, "retry: every payout that owes a step but has no job")
	cmd.StringVar(&f.paid, "paid", "", "resolve: the hash of the transaction that paid the payout")
	cmd.BoolVar(&f.unpaid, "unpaid", false, "resolve: the payout's transaction can never apply; it fails and its funds are released")
	cmd.StringVar(&f.operator, "operator", envOr(getenv, "PAYOUTD_OPERATOR", envOr(getenv, "USER", "operator")),
		"who acts, recorded as the audit log's actor operator:NAME (env PAYOUTD_OPERATOR, else USER)")
	f.env = envFlag(cmd, "production", "production (live payouts) or sandbox")
}

// actor is the audit actor of the operator's moves.
func (f *payoutsFlags) actor() store.TxOption {
	return store.WithActor("operator:"+f.operator, "")
}

// expiredSince reads --since: an RFC 3339 time or a duration back from now.
func (f *payoutsFlags) expiredSince() (time.Time, error) {
	if f.since == "" {
		return time.Time{}, errors.New("--expired needs --since T (RFC 3339, or a duration back from now such as 6h): " +
			"a retry sends money again, so name the outage")
	}
	if t, err := time.Parse(time.RFC3339, f.since); err == nil {
		return t, nil
	}
	d, err := time.ParseDuration(f.since)
	if err != nil || d <= 0 {
		return time.Time{}, fmt.Errorf("--since %q: want an RFC 3339 time or a positive duration", f.since)
	}
	return time.Now().Add(-d), nil
}

// liveRail is the Stellar rail resolve asks for proof: no signing key is
// opened, nothing is signed or sent.
func (f *payoutsFlags) liveRail(ctx context.Context, db *store.DB, stderr io.Writer) (*stellar.Rail, error) {
	if f.stellar.rpc == "" {
		return nil, errors.New("payouts resolve asks the network for proof: give -stellar-rpc URL (env PAYOUTD_STELLAR_RPC), as serve has it")
	}
	if err := f.stellar.check(); err != nil {
		return nil, err
	}
	return f.stellar.readOnlyRail(ctx, db, stderr)
}

func payoutsResolve(ctx context.Context, db *store.DB, f payoutsFlags, id string, stdout, stderr io.Writer) error {
	p, err := db.Payments().LoadPayment(ctx, id)
	if err != nil {
		return fmt.Errorf("payouts resolve: %w", err)
	}
	if !p.Livemode {
		return fmt.Errorf("payouts resolve: %s is a sandbox payout; only live payouts have transactions to prove", id)
	}
	rail, err := f.liveRail(ctx, db, stderr)
	if err != nil {
		return err
	}
	var out payout.Outcome
	var proof string
	if f.unpaid {
		out, proof, err = rail.ProveUnpaid(ctx, p)
	} else {
		out, proof, err = rail.ProvePaid(ctx, p, strings.ToLower(strings.TrimSpace(f.paid)))
	}
	if err != nil {
		return fmt.Errorf("payouts resolve %s: not resolved: %w", id, err)
	}
	err = db.WithTx(ctx, func(tx *store.Tx) error {
		p, err = payout.Resolve(tx, id, out, proof)
		return err
	}, f.actor())
	if err != nil {
		return fmt.Errorf("payouts resolve %s: %w", id, err)
	}
	fmt.Fprintf(stdout, "%s %s: %s\n", p.ID, p.Status, proof)
	return nil
}

func payoutsRetry(ctx context.Context, db *store.DB, f payoutsFlags, live bool, ids []string, stdout io.Writer) error {
	bulk := f.expired || f.stalled
	if bulk == (len(ids) > 0) || (f.expired && f.stalled) {
		return errors.New("payouts retry: want IDs, or --expired --since T, or --stalled")
	}
	switch {
	case f.expired:
		since, err := f.expiredSince()
		if err != nil {
			return err
		}
		list, err := db.Payments().OperatorPayments(ctx, store.OperatorQuery{Livemode: live, ExpiredSince: since})
		if err != nil {
			return err
		}
		ids = paymentIDs(list)
	case f.stalled:
		list, err := db.Payments().StalledPayments(ctx)
		if err != nil {
			return err
		}
		for _, p := range list {
			if p.Livemode == live {
				ids = append(ids, p.ID)
			}
		}
	}
	stalled, err := db.Payments().StalledPayments(ctx)
	if err != nil {
		return err
	}
	noJob := map[string]bool{}
	for _, p := range stalled {
		noJob[p.ID] = true
	}
	// One transaction each: a payout that cannot go (its vault short of
	// funds, say) does not hold the others back.
	var failed []string
	for _, id := range ids {
		if p, err := db.Payments().LoadPayment(ctx, id); err == nil && store.OwesStep(p.Status) && !noJob[id] {
			fmt.Fprintf(stdout, "%s %s: its job carries it on; nothing to do\n", p.ID, p.Status)
			continue
		}
		var p store.Payment
		err := db.WithTx(ctx, func(tx *store.Tx) error {
			var err error
			p, err = payout.RetryOrResume(tx, id)
			return err
		}, f.actor())
		if err != nil {
			fmt.Fprintf(stdout, "%s not retried: %v\n", id, err)
			failed = append(failed, id)
			continue
		}
		fmt.Fprintf(stdout, "%s %s\n", p.ID, p.Status)
	}
	if bulk && len(ids) == 0 {
		fmt.Fprintln(stdout, "nothing to retry")
	}
	if len(failed) > 0 {
		return fmt.Errorf("payouts retry: %d of %d not retried", len(failed), len(ids))
	}
	return nil
}

func paymentIDs(list []store.Payment) []string {
	out := make([]string, 0, len(list))
	for _, p := range list {
		out = append(out, p.ID)
	}
	return out
}
