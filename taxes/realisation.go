package taxes

import (
	"context"

	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

// RealisationRule names the rule the watch applies.
const RealisationRule = "CGST Rules r.96A(1)(b): an export of services under a LUT not paid for in convertible foreign exchange " +
	"within one year of its invoice date owes IGST with interest under s.50(1) within fifteen days after; watched from 30 days before the year ends."

// Watch is an invoice's collection and rule 96A position on a day.
// Collected is in the invoice currency's minor units, CollectedINR paise.
type Watch struct {
	Invoice      store.Invoice
	Collected    int64
	CollectedINR int64
	// Watched: issued under a LUT and not fully collected, so rule 96A's
	// limit applies; Watch.Due says whether it is within 30 days or past.
	Watched bool
	Watch   india.RealisationWatch
}

// WatchOf sets an invoice against the payouts that collected it, net of its
// credit notes, on the IST day today.
func WatchOf(i store.Invoice, cs []store.Collection, today string) Watch {
	w := Watch{Invoice: i}
	for _, c := range cs {
		if c.Collected() && c.Currency == i.Currency {
			w.Collected += c.Amount
			w.CollectedINR += *c.AmountINR
		}
	}
	owed := i.Total - i.Credited
	if i.LUTARN != "" && owed > w.Collected {
		w.Watched = true
		w.Watch = india.WatchRealisation(i.Date, i.ValueINR-i.CreditedINR, w.Collected, owed, today)
	}
	return w
}

// RealisationDue lists the user's LUT invoices rule 96A is watching today:
// not fully collected, from 30 days before the one-year limit.
func RealisationDue(ctx context.Context, db *store.DB, userID string) ([]Watch, error) {
	var out []Watch
	err := db.Snapshot(ctx, func(s *store.Snapshot) error {
		var err error
		out, err = realisationDue(s, userID)
		return err
	})
	return out, err
}

func realisationDue(s *store.Snapshot, userID string) ([]Watch, error) {
	today := india.DateOf(s.Now())
	t, _ := india.ParseDay(today)
	// An invoice is watched from 30 days before its first anniversary.
	latest := india.DateOf(t.AddDate(-1, 0, 30))
	invs, err := s.LUTInvoicesUpTo(userID, latest)
	if err != nil {
		return nil, err
	}
	var out []Watch
	for _, i := range invs {
		cs, err := s.Collections(i.ID)
		if err != nil {
			return nil, err
		}
		if w := WatchOf(i, cs, today); w.Watched && w.Watch.Due {
			out = append(out, w)
		}
	}
	return out, nil
}
