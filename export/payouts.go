package export

import (
	"context"
	"io"
	"strconv"

	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/store"
)

// Payouts writes every payout f matches (its cursor and page ignored), in
// the list's order.
func Payouts(ctx context.Context, w io.Writer, db *store.DB, f store.PaymentFilter) error {
	t, err := newTable(w, "Payout", "Created (IST)", "Status", "Client", "Client country", "Invoice", "Amount", "Currency",
		"INR", "Rate", "Settled (IST)", "Purpose code", "FIRA", "Settlement reference", "Failed reason")
	if err != nil {
		return err
	}
	f.After, f.Before, f.Page, f.Limit, f.SkipTotal = "", "", 1, chunk, true
	for {
		ps, _, err := db.Payments().ListPayments(ctx, f)
		if err != nil {
			return err
		}
		for _, p := range ps[:min(len(ps), chunk)] {
			if err := t.row(payoutRow(p)...); err != nil {
				return err
			}
		}
		if err := t.flush(); err != nil || len(ps) <= chunk {
			return err
		}
		f.After = ps[chunk-1].ID
	}
}

func payoutRow(p store.Payment) []string {
	status, inr := p.Status, ""
	if payout.IsCancelled(p) {
		status = "CANCELLED"
	}
	if p.AmountINR != nil {
		inr = decimal(*p.AmountINR, "INR")
	}
	failed := ""
	if p.Status == store.StatusFailed && !payout.IsCancelled(p) {
		failed = p.FailedReason
	}
	return []string{p.ID, istTime(&p.CreatedAt), status, text(p.CounterpartyName), p.CounterpartyCountry, text(p.InvoiceRef),
		decimal(p.Amount, p.Currency), p.Currency, inr, p.SettlementRate, istTime(p.SettledAt), p.PurposeCode, p.FiraID,
		text(p.SettlementRef), text(failed)}
}

// TaxPayments writes every challan f matches, reversed ones too (marked),
// newest first.
func TaxPayments(ctx context.Context, w io.Writer, db *store.DB, f store.TaxPaymentFilter) error {
	t, err := newTable(w, "Tax payment", "Financial year", "Kind", "Paid on", "Amount (INR)", "BSR code", "Challan serial",
		"From tax reserve", "Reversed (IST)", "Note")
	if err != nil {
		return err
	}
	f.After, f.Page, f.Limit = "", 1, chunk
	for {
		ps, _, err := db.Tax().ListTaxPayments(ctx, f)
		if err != nil {
			return err
		}
		for _, p := range ps[:min(len(ps), chunk)] {
			kind := "Advance tax"
			if p.Kind != "advance" {
				kind = "Self-assessment tax"
			}
			if err := t.row(p.ID, p.FY, kind, p.PaidOn, decimal(p.Amount, "INR"), p.BSRCode, p.ChallanSerial,
				strconv.FormatBool(p.FromReserve), istTime(p.ReversedAt), text(p.Note)); err != nil {
				return err
			}
		}
		if err := t.flush(); err != nil || len(ps) <= chunk {
			return err
		}
		f.After = ps[chunk-1].ID
	}
}
