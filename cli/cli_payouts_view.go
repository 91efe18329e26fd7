package cli

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/wire"
)

func payoutsList(ctx context.Context, db *store.DB, f payoutsFlags, live bool, stdout io.Writer) error {
	q := store.OperatorQuery{Livemode: live, Status: strings.ToUpper(f.status)}
	if f.expired {
		since, err := f.expiredSince()
		if err != nil {
			return err
		}
		q.ExpiredSince = since
	}
	list, err := db.Payments().OperatorPayments(ctx, q)
	if err != nil {
		return err
	}
	stalled, err := db.Payments().StalledPayments(ctx)
	if err != nil {
		return err
	}
	noJob := map[string]bool{}
	for _, p := range stalled {
		noJob[p.ID] = true
	}
	qs, err := db.Movements().Quarantines(ctx)
	if err != nil {
		return err
	}
	quarantined := map[string]bool{}
	for _, q := range qs {
		quarantined[q.VaultID] = true
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PAYMENT\tSTATUS\tAMOUNT\tVAULT\tSINCE\tWHY")
	for _, p := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s %s\t%s\t%s\t%s\n", p.ID, p.Status, wire.Amount(p.Amount, p.Currency), p.Currency, p.VaultID,
			p.UpdatedAt.Format("2006-01-02 15:04"), oneLine(why(p, noJob[p.ID], quarantined[p.VaultID]), 100))
	}
	return tw.Flush()
}

// why is what a person needs to know of a payout at a glance.
func why(p store.Payment, noJob, quarantined bool) string {
	switch {
	case p.Attention != "":
		return p.Attention
	case quarantined && (p.Status == store.StatusComplianceCheck || p.Status == store.StatusProcessing):
		return "waits to be signed from quarantined vault " + p.VaultID + ": payoutd check says why; payoutd vaults release " + p.VaultID
	case noJob:
		return "owes a step but no job will take it: payoutd payouts retry " + p.ID
	case p.Status == store.StatusUnknown:
		return "transaction " + p.SettlementRef + " has no known outcome yet"
	case p.Status == store.StatusManualReview:
		return "waits for review: payoutd review approve|reject " + p.ID
	case p.Status == store.StatusFailed:
		return p.FailedReason
	}
	return ""
}

// oneLine keeps the first n characters of s on one line.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func payoutsShow(ctx context.Context, db *store.DB, id string, stdout io.Writer) error {
	p, err := db.Payments().LoadPayment(ctx, id)
	if err != nil {
		return fmt.Errorf("payouts show: %w", err)
	}
	mode := "sandbox"
	if p.Livemode {
		mode = "live"
	}
	line := func(k, v string) {
		if v != "" {
			fmt.Fprintf(stdout, "%-14s%s\n", k+":", v)
		}
	}
	line("payment", p.ID)
	line("user", p.UserID+" ("+mode+")")
	line("status", p.Status+" since "+p.UpdatedAt.Format(time.RFC3339))
	line("amount", string(wire.Amount(p.Amount, p.Currency))+" "+p.Currency)
	line("destination", p.DestinationAddress)
	if p.Memo != "" {
		line("memo", fmt.Sprintf("%q (%s)", p.Memo, payout.MemoTypeOf(p.Memo, p.MemoType)))
	}
	line("vault", p.VaultID)
	line("attempt", fmt.Sprint(p.Attempt))
	if p.Reserved > 0 {
		line("reserved", string(wire.Amount(p.Reserved, p.Currency))+" "+p.Currency)
	}
	line("transaction", p.SettlementRef)
	if p.Status == store.StatusFailed {
		line("failed", p.FailedReason)
	}
	if p.Attention != "" && p.AttentionAt != nil {
		line("attention", p.Attention+" (since "+p.AttentionAt.Format(time.RFC3339)+")")
	}
	subs, err := db.Chain().PaymentSubmissions(ctx, p.ID)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	if len(subs) > 0 {
		fmt.Fprintln(stdout, "transactions:")
		fmt.Fprintln(tw, "  HASH\tATTEMPT\tSEQ\tSTATE\tVALID UNTIL\tLEDGER\tFEE\tRESULT")
		for _, s := range subs {
			fmt.Fprintf(tw, "  %s\t%d\t%d\t%s\t%s\t%d\t%d\t%s\n", s.Hash, s.Attempt, s.Seq, s.State,
				s.ValidUntil.Format(time.RFC3339), s.Ledger, s.Fee, s.Result)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	jobs, err := db.Payments().PaymentJobs(ctx, p.ID)
	if err != nil {
		return err
	}
	if len(jobs) > 0 {
		fmt.Fprintln(stdout, "jobs:")
		fmt.Fprintln(tw, "  JOB\tSTATE\tATTEMPT\tNEXT RUN\tLAST ERROR")
		for _, j := range jobs {
			fmt.Fprintf(tw, "  %d\t%s\t%d/%d\t%s\t%s\n", j.ID, j.State, j.Attempt, j.MaxAttempts,
				j.ScheduledAt.Format(time.RFC3339), oneLine(j.LastError, 120))
		}
	}
	return tw.Flush()
}
