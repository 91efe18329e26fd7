package taxes

import (
	"context"
	"encoding/json"
	"sort"
	"time"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/store"
)

// GST is the GST position of a span of days (a financial year or a GST
// month), read in one snapshot. Amounts are paise except RateUsed's
// InvoiceAmount.
type GST struct {
	From, To string // IST days, both inclusive
	Profile  store.Profile
	// LUTs are the supplier's LUTs: the recorded ones and the profile's
	// older one; LUT is the one of the span's financial year (the zero
	// value when none).
	LUTs india.LUTs
	LUT  india.LUT
	// Split classifies the span's receipts at their GST values;
	// Registration is the threshold test of the span's financial year.
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

// GSTOf reads and computes the GST position of the IST days of [start,
// end) for userID. The registration test runs over the whole financial
// year of start as far as it is known, so a month knows the day the year's
// turnover crossed the threshold even when that came later (a registration
// without its date is taken to run from that day).
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
	fy := india.FYOf(start)
	yearFrom, _ := Days(fy.Start(), fy.End())
	p, err := s.Profile(userID)
	if err != nil {
		return g, err
	}
	g.Profile = p
	if g.LUTs, err = lutsOf(s, p); err != nil {
		return g, err
	}
	g.LUT, _ = g.LUTs.For(fy)
	days, receipts, err := yearSupplies(s, userID, fy)
	if err != nil {
		return g, err
	}
	in := RegistrationInput(p)
	g.Registration = india.RegistrationOf(in, yearFrom, receipts)
	if r := g.Registration; r.LiableFromAssumed && r.CrossedOn != "" {
		// A GSTIN without its date, and this year's turnover crossed the
		// limit: a crossing in the previous year dates the registration
		// before this one.
		prev := india.FY{StartYear: fy.StartYear - 1}
		_, prior, err := yearSupplies(s, userID, prev)
		if err != nil {
			return g, err
		}
		in.PriorYearCrossedOn = india.RegistrationOf(in, india.DateOf(prev.Start()), prior).CrossedOn
		g.Registration = india.RegistrationOf(in, yearFrom, receipts)
	}
	first := sort.Search(len(receipts), func(i int) bool { return receipts[i].Day >= g.From })
	last := sort.Search(len(receipts), func(i int) bool { return receipts[i].Day > g.To })
	g.Split = india.SplitReceipts(receipts[first:last], g.LUTs, g.Registration)
	first = sort.Search(len(days), func(i int) bool { return days[i].Day >= g.From })
	last = sort.Search(len(days), func(i int) bool { return days[i].Day > g.To })
	g.Rates = ratesUsed(days[first:last])
	g.Unreconciled, g.AsOf, err = leftOutAndAsOf(s, userID, start, end)
	return g, err
}

// yearSupplies reads a financial year's GST days and its supplies in order
// of time of supply (an issued invoice standing for the receipts that
// collect it).
func yearSupplies(s *store.Snapshot, userID string, fy india.FY) ([]store.GSTDay, []india.ReceiptDay, error) {
	from, to := Days(fy.Start(), fy.End())
	days, err := s.GSTDays(userID, from, to)
	if err != nil {
		return nil, nil, err
	}
	receipts, err := supplies(s, userID, from, to, store.ReceiptDaysOfGST(days))
	return days, receipts, err
}

// RegistrationInput is what the registration test takes from the profile.
func RegistrationInput(p store.Profile) india.RegistrationInput {
	return india.RegistrationInput{GSTIN: p.GSTIN, StateCode: p.StateCode, SpecialCategory: p.GSTSpecialCategory,
		RegisteredFrom: p.GSTRegisteredFrom}
}

// lutsOf is the supplier's LUTs: each recorded one, then the profile's
// older lutNumber and lutValidUntil, which counts only for a year no
// record covers.
func lutsOf(s *store.Snapshot, p store.Profile) (india.LUTs, error) {
	recs, err := s.LUTs(p.UserID)
	if err != nil {
		return nil, err
	}
	return lutsFrom(recs, p), nil
}

func lutsFrom(recs []store.LUT, p store.Profile) india.LUTs {
	out := make(india.LUTs, 0, len(recs)+1)
	for _, r := range recs {
		if fy, err := india.ParseFY(r.FY); err == nil {
			out = append(out, india.LUTFurnished(r.ARN, fy, r.FurnishedOn))
		}
	}
	if old := india.LUTOf(p.LUTNumber, p.LUTValidUntil); old.Until != "" {
		if _, taken := out.For(old.FY); !taken {
			out = append(out, old)
		}
	}
	return out
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

// GST3B is one GST month (IST) of cross-border receipts as GSTR-3B Table
// 3.1(b): exports are zero-rated supplies whether made under a LUT (IGST 0)
// or with IGST paid, so both go in the row, with the IGST of those no LUT
// covered; exports made before the supplier became liable are no taxable
// supplies and are left out. Without a GSTIN the export says the user is not
// registered and shows no tax to pay. A period that is not a month is refused
// (ERR_VALIDATION on period).
func GST3B(ctx context.Context, db *store.DB, userID, period string) (documents.GST3B, error) {
	start, end, err := india.ParsePeriod(period)
	if err != nil {
		return documents.GST3B{}, &apperr.Error{Code: apperr.ErrValidation, Message: "request validation failed",
			Fields: map[string]string{"period": "must be a month in the form YYYY-MM, e.g. 2026-04"}}
	}
	g, err := GSTOf(ctx, db, userID, start, end)
	if err != nil {
		return documents.GST3B{}, err
	}
	t := g.Split
	reg := RegistrationView(g.Registration)
	if !reg.Registered {
		reg.Message = "Not registered for GST (no GSTIN on the profile): a GSTR-3B is filed only once registered, so this export " +
			"shows the month's exports for review and no tax to pay. " + reg.Message
	}
	return documents.BuildGST3B(documents.GST3BInput{
		Period:           period,
		GSTIN:            g.Profile.GSTIN,
		ZeroRatedTaxable: t.ZeroRated.AmountINR + t.Liable.AmountINR,
		ZeroRatedIGST:    t.Liable.IGST,
		ByInvoiceDate:    t.ByInvoiceDate,
		BySettlementDate: t.BySettlementDate,
		GeneratedAt:      db.Now(),
		Registration:     reg,
		Rates:            RatesView(g.Rates),
	}), nil
}

// RegistrationView is the registration position as the API shows it.
func RegistrationView(r *india.Registration) documents.GSTRegistration {
	v := documents.GSTRegistration{Registered: r.Registered, SpecialCategory: r.SpecialCategory, Threshold: documents.INR(r.Threshold),
		ThresholdRule: r.ThresholdRule, Turnover: documents.INR(r.Turnover), OwesGST: r.OwesGST, Message: r.Message}
	if r.StateKnown {
		v.State = &documents.GSTState{Code: r.State.Code, Name: r.State.Name, SpecialCategory: r.State.SpecialCategory}
	}
	if r.CrossedOn != "" {
		v.CrossedOn, v.RegisterBy = &r.CrossedOn, &r.RegisterBy
	}
	if r.RegisteredFrom != "" {
		v.RegisteredFrom = &r.RegisteredFrom
	}
	if r.LiableFrom != "" {
		v.LiableFrom = &r.LiableFrom
	}
	v.LiableFromAssumed = r.LiableFromAssumed
	if r.PriorYearCrossedOn != "" {
		v.PriorYearCrossedOn = &r.PriorYearCrossedOn
	}
	return v
}

// RatesView is the rates used as the API shows them.
func RatesView(rs []RateUsed) []documents.GSTRate {
	out := make([]documents.GSTRate, 0, len(rs))
	for _, r := range rs {
		cur, _ := money.Lookup(r.Currency)
		out = append(out, documents.GSTRate{Currency: r.Currency, Rate: json.Number(r.Rate), RateDate: r.RateDate,
			TimeOfSupplyFrom: r.SupplyFrom, TimeOfSupplyTo: r.SupplyTo, Receipts: r.Count,
			InvoiceValue: json.Number(money.Format(r.InvoiceAmount, cur)), InvoiceValueMinor: r.InvoiceAmount, TaxableValue: documents.INR(r.ValueINR), Basis: r.Basis()})
	}
	return out
}

// Basis names how a rate relates to the times of supply it valued:
// timeOfSupply, latestEarlier or settlementRate (documents.GSTRate).
func (r RateUsed) Basis() string { return india.RateBasis(r.RateDate, r.SupplyFrom, r.SupplyTo) }
