package taxes

import (
	"context"

	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/wire"
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

// realisationLookbackYears bounds how far back the watch job looks: an invoice
// whose one-year limit passed a year ago or more was due long before and
// is left to the pages (a server first started on an old file would
// otherwise announce years of history at once).
const realisationLookbackYears = 2

// FlagRealisations is rule 96A's watch as a job runs it: every user's LUT
// invoice that is not fully collected in foreign exchange and has reached
// 30 days before its one-year limit is flagged once, in its own
// transaction with its audit row and the invoice.realisation_due event
// (store.FlagRealisation). It returns how many it flagged. Collected
// invoices are never flagged; one flagged stays flagged.
func FlagRealisations(ctx context.Context, db *store.DB) (int, error) {
	today := india.DateOf(db.Now())
	t, _ := india.ParseDay(today)
	from := india.DateOf(t.AddDate(-realisationLookbackYears, 0, 0))
	invs, err := db.UnflaggedLUTInvoices(ctx, from, india.DateOf(t.AddDate(-1, 0, 30)))
	if err != nil {
		return 0, err
	}
	flagged := 0
	for _, candidate := range invs {
		err := db.WithTx(ctx, func(tx *store.Tx) error {
			// Read again in the writing transaction: a payout may have
			// collected it since.
			i, err := tx.InvoiceInTx(candidate.UserID, candidate.ID)
			if err != nil {
				return err
			}
			cs, err := tx.CollectionsInTx(i.ID)
			if err != nil {
				return err
			}
			today := india.DateOf(tx.Now())
			w := WatchOf(i, cs, today)
			if !w.Watched || !w.Watch.Due {
				return nil
			}
			ok, err := tx.FlagRealisation(store.RealisationFlag{Invoice: i, Day: today, Taxable: w.Watch.Taxable, IGST: w.Watch.IGST,
				Interest: w.Watch.Interest, Data: RealisationEventData(w)})
			if ok {
				flagged++
			}
			return err
		}, store.WithActor("system:realisation_watch", ""))
		if err != nil {
			return flagged, err
		}
	}
	return flagged, nil
}

// RealisationEventData is the data of an invoice.realisation_due event:
// the invoice, what is still owed in its currency, and rule 96A's figures
// in rupees with their paise (store.FlagRealisation adds the version).
func RealisationEventData(w Watch) map[string]any {
	i, r := w.Invoice, w.Watch
	owed := max(i.Total-i.Credited-w.Collected, 0)
	return map[string]any{"invoiceId": i.ID, "number": i.Number, "date": i.Date, "currency": i.Currency, "lutArn": i.LUTARN,
		"uncollected": wire.Amount(owed, i.Currency), "uncollectedMinor": owed,
		"limit": r.Limit, "payBy": r.PayBy, "watchFrom": r.WatchFrom, "overdue": r.Overdue,
		"taxableValue": wire.Amount(r.Taxable, "INR"), "taxableValuePaise": r.Taxable,
		"igst": wire.Amount(r.IGST, "INR"), "igstPaise": r.IGST,
		"interest": wire.Amount(r.Interest, "INR"), "interestPaise": r.Interest, "interestDays": r.DaysOfInterest,
		"rule": RealisationRule, "message": r.RealisationMessage(i.Number)}
}
