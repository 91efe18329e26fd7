// Package figures is where a user's tax and GST figures are put together:
// it reads what the store keeps, in one snapshot per answer, and computes
// with package india. The API and the console both call it, so they show
// the same numbers and the same sentences without computing them twice.
package figures

import (
	"context"
	"fmt"
	"time"

	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

// Income is a financial year's income-tax position, read in one snapshot.
// Amounts are paise.
type Income struct {
	FY        india.FY
	Act       india.Act
	Liability india.Liability
	// Position sets the challans against the liability, with the interest
	// owed if the balance is paid on PayOn.
	Position india.Position
	PayOn    string
	Challans []store.TaxPayment
	// Receipts splits the year's reconciled receipts (by settlement day).
	Receipts     india.ReceiptSplit
	First, Last  *time.Time // settlement times of the earliest and latest receipt
	Unreconciled store.Unreconciled
	AsOf         time.Time
	// Warnings, in this order when they apply: why presumptive taxation is
	// not available, the provisional-year label, the unreconciled receipts.
	Warnings []string
}

// IncomeOf reads and computes fy's income-tax position for userID, if the
// balance is paid on payOn (YYYY-MM-DD; "" is today in India).
func IncomeOf(ctx context.Context, db *store.DB, userID string, fy india.FY, payOn string) (Income, error) {
	var in Income
	err := db.Snapshot(ctx, func(s *store.Snapshot) error {
		var err error
		in, err = income(s, userID, fy, payOn)
		return err
	})
	return in, err
}

func income(s *store.Snapshot, userID string, fy india.FY, payOn string) (Income, error) {
	now := s.Now()
	if payOn == "" {
		payOn = india.DateOf(now)
	}
	from, to := Days(fy.Start(), fy.End())
	days, err := s.TaxDays(userID, from, to)
	if err != nil {
		return Income{}, err
	}
	in := Income{FY: fy, Act: india.ActOf(fy), PayOn: payOn, Receipts: india.SplitReceipts(store.ReceiptDaysOfTax(days), india.LUT{}, nil)}
	for _, d := range days {
		if first := d.FirstSettledAt; in.First == nil || first.Before(*in.First) {
			in.First = &first
		}
		if last := d.LastSettledAt; in.Last == nil || last.After(*in.Last) {
			in.Last = &last
		}
	}
	// Every receipt payoutd sees arrived through a bank: none is cash.
	if in.Liability, err = india.Compute(india.LiabilityInput{FY: fy, GrossReceipts: in.Receipts.All.AmountINR, Today: now}); err != nil {
		return Income{}, err
	}
	if in.Challans, err = s.TaxPaymentsOfYear(userID, fy.String()); err != nil {
		return Income{}, err
	}
	paid := make([]india.TaxPayment, 0, len(in.Challans))
	for _, p := range in.Challans {
		paid = append(paid, india.TaxPayment{Kind: p.Kind, PaidOn: p.PaidOn, Amount: p.Amount})
	}
	if in.Position, err = india.ComputePosition(in.Liability, paid, payOn); err != nil {
		return Income{}, err
	}
	if in.Unreconciled, in.AsOf, err = leftOutAndAsOf(s, userID, fy.Start(), fy.End()); err != nil {
		return Income{}, err
	}
	if msg := in.Liability.PresumptiveUnavailable(); msg != "" {
		in.Warnings = append(in.Warnings, msg)
	}
	if msg := in.Liability.ProvisionalNote(); msg != "" {
		in.Warnings = append(in.Warnings, msg)
	}
	if in.Unreconciled.Count > 0 {
		in.Warnings = append(in.Warnings, UnreconciledMessage(in.Unreconciled))
	}
	return in, nil
}

// leftOutAndAsOf reads what the figures of [from, to) leave out and when
// they were computed (the refresh time, or now before the first one).
func leftOutAndAsOf(s *store.Snapshot, userID string, from, to time.Time) (store.Unreconciled, time.Time, error) {
	u, err := s.UnreconciledReceipts(userID, from, to)
	if err != nil {
		return u, time.Time{}, err
	}
	at, ok, err := s.TaxRefreshedAt(userID)
	if !ok {
		at = s.Now()
	}
	return u, at, err
}

// UnreconciledMessage says what the figures leave out and how to resolve it.
func UnreconciledMessage(u store.Unreconciled) string {
	if u.Count == 0 {
		return "No settled receipt is waiting for reconciliation."
	}
	return fmt.Sprintf("%d settled receipt(s) worth ₹%s are not reconciled yet and are left out of these figures. "+
		"Inspect each with GET /api/v1/ledger/reconciliation/{paymentId} and resolve it with "+
		"POST /api/v1/ledger/reconciliation/{paymentId}/resolve; paymentIds lists the oldest.",
		u.Count, documents.FormatINR(u.AmountINR))
}

// Days turns the half-open instant range [start, end) into the IST days it
// spans, both inclusive: the keys of the maintained aggregates.
func Days(start, end time.Time) (string, string) {
	return india.DateOf(start), india.DateOf(end.Add(-time.Millisecond))
}
