// Package taxes reads a user's tax figures as the API and the console both
// show them: the year's liability from reconciled receipts with the taxes
// paid against it, a GST month, and the ITR-4 input. The reads are store's
// and the rules india's; this package only puts them together once, so
// the two front ends cannot drift apart.
package taxes

import (
	"context"
	"time"

	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

// Year is a financial year's indicative position.
type Year struct {
	FY           india.FY
	Liability    india.Liability
	Totals       store.TaxTotals // the year's reconciled receipts
	Paid         india.TaxPaid
	Challans     []store.TaxPayment // the year's challans that count (not reversed)
	Unreconciled store.Unreconciled // settled receipts the figures leave out
	// AsOf is when the figures were last recomputed; before the first
	// reconciliation there is nothing to recompute, so it is now.
	AsOf time.Time
}

// ISTDays turns the half-open instant range [start, end) into the IST days
// it spans, both inclusive, the keys of the tax aggregates.
func ISTDays(start, end time.Time) (string, string) {
	return start.In(india.IST).Format(time.DateOnly), end.Add(-time.Millisecond).In(india.IST).Format(time.DateOnly)
}

// Totals sums the user's maintained aggregates over [start, end).
func Totals(ctx context.Context, db *store.DB, userID string, start, end time.Time, lut store.LUTWindow) (store.TaxTotals, error) {
	from, to := ISTDays(start, end)
	days, err := db.TaxDays(ctx, userID, from, to)
	if err != nil {
		return store.TaxTotals{}, err
	}
	return store.SumTaxDays(days, lut), nil
}

// Liability computes the indicative liability of a financial year from the
// user's reconciled receipts, all of which arrived through a bank (no
// cash), with instalments before today marked past.
func Liability(ctx context.Context, db *store.DB, userID string, fy india.FY) (india.Liability, store.TaxTotals, error) {
	t, err := Totals(ctx, db, userID, fy.Start(), fy.End(), store.LUTWindow{})
	if err != nil {
		return india.Liability{}, t, err
	}
	l, err := india.Compute(india.LiabilityInput{FY: fy, GrossReceipts: t.All.AmountINR, Today: db.Now()})
	return l, t, err
}

// Paid sets the year's recorded challans against its liability.
func Paid(ctx context.Context, db *store.DB, userID string, l india.Liability) (india.TaxPaid, []store.TaxPayment, error) {
	ps, err := db.TaxPaymentsOfYear(ctx, userID, l.FY.String())
	if err != nil {
		return india.TaxPaid{}, nil, err
	}
	in := make([]india.TaxPayment, 0, len(ps))
	for _, p := range ps {
		in = append(in, india.TaxPayment{Kind: p.Kind, PaidOn: p.PaidOn, Amount: p.Amount})
	}
	tp, err := india.ApplyTaxPaid(l.EstimatedTaxDue, l.AdvanceTaxSchedule, in)
	return tp, ps, err
}

// AsOf is when the user's figures were last recomputed (now before the
// first reconciliation).
func AsOf(ctx context.Context, db *store.DB, userID string) (time.Time, error) {
	at, ok, err := db.TaxRefreshedAt(ctx, userID)
	if err != nil || !ok {
		return db.Now(), err
	}
	return at, nil
}

// ReadYear is everything GET /tax/liability shows of a year.
func ReadYear(ctx context.Context, db *store.DB, userID string, fy india.FY) (Year, error) {
	y := Year{FY: fy}
	var err error
	if y.Liability, y.Totals, err = Liability(ctx, db, userID, fy); err != nil {
		return y, err
	}
	if y.Unreconciled, err = db.UnreconciledReceipts(ctx, userID, fy.Start(), fy.End()); err != nil {
		return y, err
	}
	if y.AsOf, err = AsOf(ctx, db, userID); err != nil {
		return y, err
	}
	y.Paid, y.Challans, err = Paid(ctx, db, userID, y.Liability)
	return y, err
}
