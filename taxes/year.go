// Package figures is where a user's tax and GST figures are put together:
// it reads what the store keeps, in one snapshot per answer, and computes
// with package india. The API and the console both call it, so they show
// the same numbers and the same sentences without computing them twice.
package taxes

import (
	"context"
	"fmt"
	"time"

	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

// Year is a financial year's income-tax position, read in one snapshot.
// Amounts are paise.
type Year struct {
	FY        india.FY
	Act       india.Act
	Liability india.Liability
	// Interest is owed if the balance is paid on PayOn; Paid sets the
	// challans against the tax and that interest (india.ComputePosition).
	Interest india.Interest
	Paid     india.TaxPaid
	PayOn    string
	Challans []store.TaxPayment
	// Totals splits the year's reconciled receipts (by settlement day);
	// Days are the aggregates they were summed from.
	Totals       india.ReceiptSplit
	Days         []store.TaxDay
	First, Last  *time.Time // settlement times of the earliest and latest receipt
	Unreconciled store.Unreconciled
	AsOf         time.Time
	// Warnings, in this order when they apply: why presumptive taxation is
	// not available, the provisional-year label, the unreconciled receipts.
	Warnings []string
}

// ReadYear is YearOf with the balance paid today.
func ReadYear(ctx context.Context, db *store.DB, userID string, fy india.FY) (Year, error) {
	return YearOf(ctx, db, userID, fy, "")
}

// YearOf reads and computes fy's income-tax position for userID, if the
// balance is paid on payOn (YYYY-MM-DD; "" is today in India).
func YearOf(ctx context.Context, db *store.DB, userID string, fy india.FY, payOn string) (Year, error) {
	var in Year
	err := db.Snapshot(ctx, func(s *store.Snapshot) error {
		var err error
		in, err = year(s, userID, fy, payOn)
		return err
	})
	return in, err
}

func year(s *store.Snapshot, userID string, fy india.FY, payOn string) (Year, error) {
	now := s.Now()
	if payOn == "" {
		payOn = india.DateOf(now)
	}
	from, to := Days(fy.Start(), fy.End())
	days, err := s.TaxDays(userID, from, to)
	if err != nil {
		return Year{}, err
	}
	in := Year{FY: fy, Act: india.ActOf(fy), PayOn: payOn, Days: days, Totals: india.SplitReceipts(store.ReceiptDaysOfTax(days), nil, nil)}
	for _, d := range days {
		if first := d.FirstSettledAt; in.First == nil || first.Before(*in.First) {
			in.First = &first
		}
		if last := d.LastSettledAt; in.Last == nil || last.After(*in.Last) {
			in.Last = &last
		}
	}
	// Every receipt payoutd sees arrived through a bank: none is cash.
	if in.Liability, err = india.Compute(india.LiabilityInput{FY: fy, GrossReceipts: in.Totals.All.AmountINR, Today: now}); err != nil {
		return Year{}, err
	}
	if in.Challans, err = s.TaxPaymentsOfYear(userID, fy.String()); err != nil {
		return Year{}, err
	}
	paid := make([]india.TaxPayment, 0, len(in.Challans))
	for _, p := range in.Challans {
		paid = append(paid, india.TaxPayment{Kind: p.Kind, PaidOn: p.PaidOn, Amount: p.Amount})
	}
	pos, err := india.ComputePosition(in.Liability, paid, payOn)
	if err != nil {
		return Year{}, err
	}
	in.Interest, in.Paid = pos.Interest, pos.Paid
	if in.Unreconciled, in.AsOf, err = leftOutAndAsOf(s, userID, fy.Start(), fy.End()); err != nil {
		return Year{}, err
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
