package india

import (
	"fmt"
	"time"

	"github.com/payoutd/payoutd/money"
)

// How a receipt's GST rate was chosen (kept with its value as rate_basis).
const (
	// GSTRateSettlement: the time of supply is the settlement day, and the
	// settlement's own rate is that day's rate.
	GSTRateSettlement = "settlement"
	// GSTRateRecorded: the latest rate recorded on or before the time of
	// supply (its own day's, or the latest earlier one: RateDate says which).
	GSTRateRecorded = "recorded"
	// GSTRateFallback: no rate was recorded on or before the time of
	// supply, so the settlement's rate (of a later day) stands in.
	GSTRateFallback = "fallback"
)

// GSTReceipt is what a settled receipt's GST value is taken from. Amount
// and InvoiceAmount are in Currency's minor units, AmountINR in paise.
type GSTReceipt struct {
	Currency       string
	Amount         int64  // what was paid
	InvoiceAmount  int64  // the invoice's amount; 0 when it is Amount
	InvoiceDate    string // YYYY-MM-DD; "" when none was given
	AmountINR      int64  // what settlement credited, Amount at SettlementRate
	SettlementRate string // "" for an INR payout
	SettledAt      time.Time
	RateAsOf       time.Time // when the settlement's rate was true
}

// GSTRate is an INR rate with the time it was true.
type GSTRate struct {
	Rate string
	AsOf time.Time
}

// GSTValuation is a receipt's GST taxable value: its invoice value at the
// INR rate of its time of supply, ValueINR in paise.
type GSTValuation struct {
	Day           string // the time of supply, YYYY-MM-DD (IST)
	InvoiceAmount int64
	Rate          string
	RateAsOf      time.Time
	RateDate      string // IST date of RateAsOf
	RateBasis     string
	ValueINR      int64
	// Settlement is the settlement's own rate, which joins the rate
	// history the next receipts are valued from.
	Settlement GSTRate
}

// GSTSupplyDay is a receipt's time of supply (CGST Rules r.34(2) with CGST
// s.13 / IGST s.20): its invoice date when it has one, else its IST
// settlement day. lookup says the day is not the settlement's, so its rate
// is looked up in the rate history.
func GSTSupplyDay(invoiceDate string, settledAt time.Time) (day string, lookup bool) {
	day = DateOf(settledAt)
	if invoiceDate != "" && invoiceDate != day {
		return invoiceDate, true
	}
	return day, false
}

// ValueForGST values r at the rate of its time of supply: the
// settlement's own on the settlement day; on another day the latest rate
// recorded on or before it (recorded; nil when the history holds none),
// else the settlement's as a fallback. At the settlement's rate and amount
// the value is the very INR settlement credited.
func ValueForGST(r GSTReceipt, recorded *GSTRate) (GSTValuation, error) {
	rate := r.SettlementRate
	if r.Currency == "INR" && rate == "" {
		rate = "1"
	}
	day, lookup := GSTSupplyDay(r.InvoiceDate, r.SettledAt)
	v := GSTValuation{Day: day, InvoiceAmount: r.Amount, Rate: rate, RateAsOf: r.RateAsOf, RateBasis: GSTRateSettlement,
		Settlement: GSTRate{Rate: rate, AsOf: r.RateAsOf}}
	if r.InvoiceAmount > 0 {
		v.InvoiceAmount = r.InvoiceAmount
	}
	switch {
	case lookup && recorded != nil:
		v.Rate, v.RateAsOf, v.RateBasis = recorded.Rate, recorded.AsOf, GSTRateRecorded
	case lookup:
		v.RateBasis = GSTRateFallback
	}
	v.RateDate = DateOf(v.RateAsOf)
	if v.Rate == r.SettlementRate && v.InvoiceAmount == r.Amount {
		v.ValueINR = r.AmountINR
		return v, nil
	}
	value, err := convertAt(v.InvoiceAmount, r.Currency, v.Rate)
	if err != nil {
		return GSTValuation{}, err
	}
	v.ValueINR = value
	return v, nil
}

// convertAt is minor units of currency at an INR rate, half-up to the paisa.
func convertAt(minor int64, currency, rate string) (int64, error) {
	cur, ok := money.Lookup(currency)
	if !ok {
		return 0, fmt.Errorf("unknown currency %s", currency)
	}
	r, err := money.ParseRate(rate)
	if err != nil {
		return 0, err
	}
	inr, _ := money.Lookup("INR")
	return money.ConvertChecked(minor, cur, r, inr)
}
