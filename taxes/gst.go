package taxes

import (
	"context"
	"time"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

// Profile is what the GST and ITR-4 figures need from the profile. A user
// without a profile row has no GSTIN and no LUT.
func Profile(ctx context.Context, db *store.DB, userID string) (store.Profile, error) {
	p, err := db.FindProfile(ctx, userID)
	if apperr.Code(err) == apperr.ErrProfileNotFound {
		return store.Profile{UserID: userID}, nil
	}
	return p, err
}

// GSTTotals sums the user's GST days (invoice date, else IST settlement
// day) over [start, end); income-tax slabs play no part.
func GSTTotals(ctx context.Context, db *store.DB, userID string, start, end time.Time, lut store.LUTWindow) (store.GSTTotals, error) {
	from, to := ISTDays(start, end)
	days, err := db.GSTDays(ctx, userID, from, to)
	if err != nil {
		return store.GSTTotals{}, err
	}
	return store.SumGSTDays(days, lut), nil
}

// GST3B is one GST month (IST) of cross-border receipts as GSTR-3B Table
// 3.1(b): exports are zero-rated supplies whether made under a LUT (IGST 0)
// or with IGST paid, so both go in the row, with the IGST of those no LUT
// covered. The GSTIN is the profile's, "" when none is set. A period that
// is not a month is refused (ERR_VALIDATION on period).
func GST3B(ctx context.Context, db *store.DB, userID, period string) (documents.GST3B, error) {
	start, end, err := india.ParsePeriod(period)
	if err != nil {
		return documents.GST3B{}, &apperr.Error{Code: apperr.ErrValidation, Message: "request validation failed",
			Fields: map[string]string{"period": "must be a month in the form YYYY-MM, e.g. 2026-04"}}
	}
	prof, err := Profile(ctx, db, userID)
	if err != nil {
		return documents.GST3B{}, err
	}
	t, err := GSTTotals(ctx, db, userID, start, end, store.LUTWindowOf(prof.LUTNumber, prof.LUTValidUntil))
	if err != nil {
		return documents.GST3B{}, err
	}
	return documents.BuildGST3B(documents.GST3BInput{
		Period:           period,
		GSTIN:            prof.GSTIN,
		ZeroRatedTaxable: t.ZeroRated.AmountINR + t.Liable.AmountINR,
		ZeroRatedIGST:    t.Liable.IGST,
		ByInvoiceDate:    t.ByInvoiceDate,
		BySettlementDate: t.BySettlementDate,
		GeneratedAt:      db.Now(),
	}), nil
}
