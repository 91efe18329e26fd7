package india

import (
	"fmt"
	"time"
)

// IGSTPercent is the IGST rate a cross-border service receipt attracts when
// no valid LUT covers it. 18% for IT and consulting is an assumption, not a
// confirmed rate (facts §3: "UNCONFIRMED").
const IGSTPercent = 18

// IGST is the IGST on one receipt's taxable value (paise), half-up to the
// paisa: each receipt is its own invoice.
func IGST(value int64) int64 { return percentHalfUp(value, IGSTPercent) }

// LUT is the span of IST days a Letter of Undertaking covers, both
// inclusive: a LUT is valid for one financial year and does not roll over
// (facts §3), so it covers the year that contains its validUntil date, from
// 1 April up to validUntil. The zero value covers nothing.
type LUT struct {
	From, Until string // YYYY-MM-DD
}

// LUTOf reads the profile's LUT; one without a number or without a
// readable validUntil date covers nothing.
func LUTOf(number, validUntil string) LUT {
	until, err := time.ParseInLocation(time.DateOnly, validUntil, IST)
	if number == "" || err != nil {
		return LUT{}
	}
	return LUT{From: DateOf(FYOf(until).Start()), Until: validUntil}
}

// Covers reports whether the LUT is valid on an IST day.
func (l LUT) Covers(day string) bool {
	return l.Until != "" && day >= l.From && day <= l.Until
}

// FiledFor reports whether the LUT is the one for fy.
func (l LUT) FiledFor(fy FY) bool {
	return l.Until != "" && l.From == DateOf(fy.Start())
}

// ReceiptDay is a group of receipts of one kind on one day, as the store
// keeps them: Day is the settlement day for income tax, the time of supply
// for GST. Amounts are paise; IGST is the sum of each receipt's IGST.
type ReceiptDay struct {
	Day         string // YYYY-MM-DD, IST
	CrossBorder bool
	Count       int64
	AmountINR   int64
	IGST        int64
	ByInvoice   int64 // of Count, the receipts placed on Day by their invoice date
}

// ReceiptTotal is a count and sum of receipts with the IGST they carry.
type ReceiptTotal struct {
	Count     int64
	AmountINR int64
	IGST      int64
}

func (t *ReceiptTotal) add(d ReceiptDay) {
	t.Count += d.Count
	t.AmountINR += d.AmountINR
	t.IGST += d.IGST
}

// ReceiptSplit is the one classification of receipts every figure uses:
// All of them (income tax); Domestic ones, which GST figures leave
// unclassified; cross-border ones (exports of services) ZeroRated when a
// LUT covers their day and Liable to IGST otherwise, or Unregistered when
// the supplier has no GSTIN and the year's turnover had not yet crossed the
// registration threshold on their day (no GST at all). ByInvoiceDate and
// BySettlementDate count the cross-border receipts placed each way.
type ReceiptSplit struct {
	All          ReceiptTotal
	Domestic     ReceiptTotal
	ZeroRated    ReceiptTotal
	Liable       ReceiptTotal
	Unregistered ReceiptTotal

	ByInvoiceDate    int64
	BySettlementDate int64
}

// SplitReceipts classifies days against a LUT and, for GST, a registration
// position (nil for income tax, where only All and Domestic matter). A
// registered supplier is classified by the LUT alone; an unregistered one
// owes nothing on the days before its turnover crossed the threshold and,
// from that day, IGST on every export (a LUT needs a registration).
func SplitReceipts(days []ReceiptDay, lut LUT, reg *Registration) ReceiptSplit {
	var s ReceiptSplit
	unregistered := reg != nil && !reg.Registered
	for _, d := range days {
		s.All.add(d)
		switch {
		case !d.CrossBorder:
			s.Domestic.add(d)
		case unregistered && (reg.CrossedOn == "" || d.Day < reg.CrossedOn):
			s.Unregistered.add(ReceiptDay{Count: d.Count, AmountINR: d.AmountINR})
		case !unregistered && lut.Covers(d.Day):
			s.ZeroRated.add(ReceiptDay{Count: d.Count, AmountINR: d.AmountINR})
		default:
			s.Liable.add(d)
		}
		if d.CrossBorder {
			s.ByInvoiceDate += d.ByInvoice
			s.BySettlementDate += d.Count - d.ByInvoice
		}
	}
	return s
}

// GST registration thresholds (CGST s.22, facts §3): a supplier of services
// must register once aggregate turnover in a financial year exceeds ₹20 lakh,
// ₹10 lakh in a special-category State; IGST Notification 10/2017 exempts
// inter-State suppliers of services within those limits from s.24(i), and
// registration is applied for within 30 days of becoming liable (s.25(1)).
const (
	RegistrationThreshold                = 20 * lakh
	RegistrationThresholdSpecialCategory = 10 * lakh
	registrationDays                     = 30
)

// Registration is the registration position of a year. Amounts are paise.
type Registration struct {
	Registered      bool // a GSTIN is on the profile
	SpecialCategory bool
	Threshold       int64
	Turnover        int64 // aggregate turnover: every receipt of the year, exports included
	// CrossedOn is the day (time of supply) the year's turnover first
	// exceeded Threshold, and RegisterBy 30 days after it; "" when it has
	// not (or the supplier is registered).
	CrossedOn  string
	RegisterBy string
	// OwesGST is false for an unregistered supplier within the threshold.
	OwesGST bool
	Message string
}

// RegistrationOf is the threshold test of a supplier with or without a
// GSTIN, in a special-category State or not, over the financial year's
// days so far (in day order, by time of supply, every receipt at its GST
// value: exports count in aggregate turnover).
func RegistrationOf(gstin string, specialCategory bool, days []ReceiptDay) *Registration {
	r := &Registration{Registered: gstin != "", SpecialCategory: specialCategory, Threshold: RegistrationThreshold}
	if specialCategory {
		r.Threshold = RegistrationThresholdSpecialCategory
	}
	for _, d := range days {
		if r.Turnover += d.AmountINR; r.CrossedOn == "" && !r.Registered && r.Turnover > r.Threshold {
			r.CrossedOn = d.Day
		}
	}
	r.settle()
	return r
}

// settle fills the dates, OwesGST and the message once the turnover is known.
func (r *Registration) settle() {
	where := "₹20 lakh"
	if r.SpecialCategory {
		where = "₹10 lakh, the limit in a special-category State"
	}
	switch {
	case r.Registered:
		r.OwesGST = true
		r.Message = "Registered for GST (GSTIN on the profile): exports are zero-rated under a valid LUT, else IGST is payable."
	case r.CrossedOn == "":
		r.Message = fmt.Sprintf("Not registered for GST (no GSTIN on the profile) and aggregate turnover of %s is within %s: "+
			"no registration is needed and no GST is owed (CGST s.22; IGST Notification 10/2017 exempts inter-State "+
			"supplies of services within the limit from s.24(i)).", rupeeText(r.Turnover), where)
	default:
		on, _ := time.Parse(time.DateOnly, r.CrossedOn)
		r.RegisterBy = on.AddDate(0, 0, registrationDays).Format(time.DateOnly)
		r.OwesGST = true
		r.Message = fmt.Sprintf("Registration required: aggregate turnover of %s crossed %s on %s, so GST registration "+
			"must be applied for within 30 days, by %s (CGST s.22 and s.25(1)). Until a GSTIN is on the profile, "+
			"exports from that day on are shown as liable to IGST; no LUT applies without a registration.",
			rupeeText(r.Turnover), where, r.CrossedOn, r.RegisterBy)
	}
}

// RateBasis says how the date of a GST rate relates to the times of supply
// (from..to) valued at it: "timeOfSupply" when it is their own day,
// "latestEarlier" when it is of an earlier day (none was held for theirs),
// "settlementRate" when it is of a later day (none was held on or before
// them, and the settlement's stood in).
func RateBasis(rateDate, supplyFrom, supplyTo string) string {
	switch {
	case rateDate > supplyFrom:
		return "settlementRate"
	case rateDate < supplyTo:
		return "latestEarlier"
	}
	return "timeOfSupply"
}
