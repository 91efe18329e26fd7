package figures

import (
	"context"
	"sort"
	"time"

	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

// GST is the GST position of a span of days (a financial year or a GST
// month), read in one snapshot. Amounts are paise except RateUsed's
// InvoiceAmount.
type GST struct {
	From, To string // IST days, both inclusive
	Profile  store.Profile
	LUT      india.LUT
	// Split classifies the span's receipts at their GST values;
	// Registration is the threshold test of the financial year up to To.
	Split        india.ReceiptSplit
	Registration *india.Registration
	Rates        []RateUsed
	Unreconciled store.Unreconciled
	AsOf         time.Time
}

// RateUsed is one INR rate the cross-border receipts of the span were
// valued at, with the times of supply valued at it.
type RateUsed struct {
	Currency      string
	Rate          string // INR per unit
	RateDate      string // the IST date the rate was true
	SupplyFrom    string // the earliest and latest time of supply valued at it
	SupplyTo      string
	Count         int64
	InvoiceAmount int64 // minor units of Currency
	ValueINR      int64
}

// Earlier reports whether the rate is of a day before some time of supply
// valued at it: no rate was recorded for that day, and the latest earlier
// one was used.
func (r RateUsed) Earlier() bool { return r.RateDate < r.SupplyTo }

// Later reports whether the rate is of a day after a time of supply valued
// at it: no rate was recorded on or before it, and the settlement's stood in.
func (r RateUsed) Later() bool { return r.RateDate > r.SupplyFrom }

// GSTOf reads and computes the GST position of the IST days of [start,
// end) for userID. The registration test runs over the financial year of
// start up to the span's end, so a month knows whether the year's turnover
// had already crossed the threshold.
func GSTOf(ctx context.Context, db *store.DB, userID string, start, end time.Time) (GST, error) {
	var g GST
	err := db.Snapshot(ctx, func(s *store.Snapshot) error {
		var err error
		g, err = gst(s, userID, start, end)
		return err
	})
	return g, err
}

func gst(s *store.Snapshot, userID string, start, end time.Time) (GST, error) {
	g := GST{}
	g.From, g.To = Days(start, end)
	yearFrom, _ := Days(india.FYOf(start).Start(), end)
	p, err := s.Profile(userID)
	if err != nil {
		return g, err
	}
	g.Profile, g.LUT = p, india.LUTOf(p.LUTNumber, p.LUTValidUntil)
	days, err := s.GSTDays(userID, yearFrom, g.To)
	if err != nil {
		return g, err
	}
	receipts := store.ReceiptDaysOfGST(days)
	g.Registration = india.RegistrationOf(p.GSTIN, p.GSTSpecialCategory, receipts)
	first := sort.Search(len(days), func(i int) bool { return days[i].Day >= g.From })
	g.Split = india.SplitReceipts(receipts[first:], g.LUT, g.Registration)
	g.Rates = ratesUsed(days[first:])
	g.Unreconciled, g.AsOf, err = leftOutAndAsOf(s, userID, start, end)
	return g, err
}

// ratesUsed groups the cross-border GST days by currency, rate and rate
// date, in the order of the rate's date.
func ratesUsed(days []store.GSTDay) []RateUsed {
	type key struct{ currency, rate, date string }
	at := map[key]int{}
	out := []RateUsed{}
	for _, d := range days {
		if !d.CrossBorder {
			continue
		}
		k := key{d.Currency, d.Rate, d.RateDate}
		i, ok := at[k]
		if !ok {
			i = len(out)
			at[k] = i
			out = append(out, RateUsed{Currency: d.Currency, Rate: d.Rate, RateDate: d.RateDate, SupplyFrom: d.Day})
		}
		r := &out[i]
		r.SupplyTo = max(r.SupplyTo, d.Day)
		r.SupplyFrom = min(r.SupplyFrom, d.Day)
		r.Count += d.Count
		r.InvoiceAmount += d.InvoiceAmount
		r.ValueINR += d.ValueINR
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].RateDate != out[j].RateDate {
			return out[i].RateDate < out[j].RateDate
		}
		return out[i].Currency < out[j].Currency
	})
	return out
}
