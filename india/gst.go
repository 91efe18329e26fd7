package india

// IGSTPercent is the IGST rate a cross-border service receipt attracts when
// no valid LUT covers it. 18% for IT and consulting is an assumption, not a
// confirmed rate (facts §3: "UNCONFIRMED").
const IGSTPercent = 18

// IGST is the IGST on one receipt's taxable value (paise), half-up to the
// paisa: each receipt is its own invoice.
func IGST(value int64) int64 { return percentHalfUp(value, IGSTPercent) }

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
	// SupplyDay, when set, is the day that classifies the row instead of
	// Day: a credit note counts in its own month but reverses a supply of
	// its invoice's date.
	SupplyDay string
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
// unclassified; cross-border ones (exports of services) Unregistered
// (not taxable: made before the supplier became liable to register or was
// registered), ZeroRated when the year's LUT covers them (ExPostFacto, a
// part of ZeroRated, those made before it was furnished), and Liable to IGST
// otherwise. ByInvoiceDate and BySettlementDate count the cross-border
// receipts placed each way.
type ReceiptSplit struct {
	All          ReceiptTotal
	Domestic     ReceiptTotal
	ZeroRated    ReceiptTotal
	ExPostFacto  ReceiptTotal
	Liable       ReceiptTotal
	Unregistered ReceiptTotal

	ByInvoiceDate    int64
	BySettlementDate int64
}

// SplitReceipts classifies days against the supplier's LUTs and, for GST,
// its registration position (nil for income tax, where only All and
// Domestic matter). Exports before the registration's LiableFrom owe
// nothing; after it an unregistered supplier owes IGST on every export (a
// LUT needs a registration), a registered one on those no LUT of their year
// covers.
func SplitReceipts(days []ReceiptDay, luts LUTs, reg *Registration) ReceiptSplit {
	var s ReceiptSplit
	for _, d := range days {
		s.All.add(d)
		day := d.Day
		if d.SupplyDay != "" {
			day = d.SupplyDay
		}
		lut, covered := luts.Cover(day)
		switch {
		case !d.CrossBorder:
			s.Domestic.add(d)
		case reg != nil && (reg.LiableFrom == "" || day < reg.LiableFrom):
			s.Unregistered.add(ReceiptDay{Count: d.Count, AmountINR: d.AmountINR})
		case (reg == nil || reg.Registered) && covered:
			s.ZeroRated.add(ReceiptDay{Count: d.Count, AmountINR: d.AmountINR})
			if lut.ExPostFacto(day) {
				s.ExPostFacto.add(ReceiptDay{Count: d.Count, AmountINR: d.AmountINR})
			}
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
