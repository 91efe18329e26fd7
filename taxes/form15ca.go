package taxes

import (
	"context"
	"time"

	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

// Form15CAYear is the Form 15CA part a remittance of inr paise made at
// instant at would take if it were a payment to a non-resident: rule 37BB
// judges it with the financial year's earlier such payments, here the
// year's cross-border receipts reconciled before it (paymentID is left out
// of them). The days before its own are read from the maintained tax_days,
// its own day from the reconciliations of that day, so the read costs a
// year of days and one day of receipts.
func Form15CAYear(ctx context.Context, db *store.DB, userID, paymentID string, at time.Time, inr int64) (india.Form15CA, india.FY, error) {
	fy := india.FYOf(at)
	dayStart, _ := india.ParseDay(india.DateOf(at))
	var earlier int64
	err := db.Snapshot(ctx, func(s *store.Snapshot) error {
		if yearFrom := fy.Start(); dayStart.After(yearFrom) {
			days, err := s.TaxDays(userID, india.DateOf(yearFrom), india.DateOf(dayStart.AddDate(0, 0, -1)))
			if err != nil {
				return err
			}
			for _, d := range days {
				if d.CrossBorder {
					earlier += d.AmountINR
				}
			}
		}
		sameDay, err := s.CrossBorderReconciledBetween(userID, dayStart, at, paymentID)
		earlier += sameDay
		return err
	})
	return india.Form15CAOf(inr, earlier), fy, err
}
