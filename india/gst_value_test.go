package india_test

import (
	"testing"
	"time"

	"github.com/payoutd/payoutd/india"
)

// TestValueForGST: a receipt is valued at the rate of its time of supply,
// the invoice date when it has one, else the IST settlement day.
func TestValueForGST(t *testing.T) {
	settled := time.Date(2026, 4, 2, 18, 40, 0, 0, time.UTC) // 3 April 00:10 IST
	rateAsOf := settled.Add(-time.Minute)
	usd := india.GSTReceipt{Currency: "USD", Amount: 10000, AmountINR: 832500, SettlementRate: "83.25", SettledAt: settled, RateAsOf: rateAsOf}
	recorded := &india.GSTRate{Rate: "83.00", AsOf: time.Date(2026, 3, 31, 6, 0, 0, 0, time.UTC)}
	with := func(r india.GSTReceipt, f func(*india.GSTReceipt)) india.GSTReceipt { f(&r); return r }
	for _, c := range []struct {
		name     string
		r        india.GSTReceipt
		recorded *india.GSTRate
		day      string
		rate     string
		basis    string
		rateDate string
		value    int64
	}{
		{"SettlementDayIsIST", usd, nil, "2026-04-03", "83.25", india.GSTRateSettlement, "2026-04-03", 832500},
		{"InvoiceOnSettlementDay", with(usd, func(r *india.GSTReceipt) { r.InvoiceDate = "2026-04-03" }), recorded,
			"2026-04-03", "83.25", india.GSTRateSettlement, "2026-04-03", 832500},
		{"InvoiceEarlierRecorded", with(usd, func(r *india.GSTReceipt) { r.InvoiceDate = "2026-03-31" }), recorded,
			"2026-03-31", "83.00", india.GSTRateRecorded, "2026-03-31", 830000},
		{"InvoiceEarlierNoneRecorded", with(usd, func(r *india.GSTReceipt) { r.InvoiceDate = "2026-03-01" }), nil,
			"2026-03-01", "83.25", india.GSTRateFallback, "2026-04-03", 832500},
		{"InvoiceAmountDiffers", with(usd, func(r *india.GSTReceipt) { r.InvoiceAmount = 10050 }), nil,
			"2026-04-03", "83.25", india.GSTRateSettlement, "2026-04-03", 836663}, // 100.50 × 83.25 = 8,366.625 → half-up
		{"INRAtOne", india.GSTReceipt{Currency: "INR", Amount: 50000, AmountINR: 50000, SettledAt: settled, RateAsOf: settled}, nil,
			"2026-04-03", "1", india.GSTRateSettlement, "2026-04-03", 50000},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, err := india.ValueForGST(c.r, c.recorded)
			if err != nil {
				t.Fatal(err)
			}
			if v.Day != c.day || v.Rate != c.rate || v.RateBasis != c.basis || v.RateDate != c.rateDate || v.ValueINR != c.value {
				t.Errorf("got day %s rate %s basis %s rate date %s value %d; want %s %s %s %s %d",
					v.Day, v.Rate, v.RateBasis, v.RateDate, v.ValueINR, c.day, c.rate, c.basis, c.rateDate, c.value)
			}
			want := india.GSTRate{Rate: c.r.SettlementRate, AsOf: c.r.RateAsOf}
			if c.r.Currency == "INR" {
				want.Rate = "1"
			}
			if v.Settlement != want {
				t.Errorf("settlement rate for the history %+v, want %+v", v.Settlement, want)
			}
		})
	}
	if _, err := india.ValueForGST(india.GSTReceipt{Currency: "XXX", Amount: 1, InvoiceAmount: 2, SettledAt: settled}, nil); err == nil {
		t.Error("an unknown currency was valued")
	}
}

func TestGSTSupplyDay(t *testing.T) {
	at := time.Date(2026, 3, 31, 18, 29, 0, 0, time.UTC) // 23:59 IST
	for _, c := range []struct {
		invoice, day string
		lookup       bool
	}{{"", "2026-03-31", false}, {"2026-03-31", "2026-03-31", false}, {"2026-03-20", "2026-03-20", true}} {
		if day, lookup := india.GSTSupplyDay(c.invoice, at); day != c.day || lookup != c.lookup {
			t.Errorf("GSTSupplyDay(%q) = %s, %v; want %s, %v", c.invoice, day, lookup, c.day, c.lookup)
		}
	}
}
