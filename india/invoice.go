package india

import (
	"fmt"
	"time"
)

// Export invoices (CGST Rules r.46; r.53 for credit notes): each carries a
// consecutive serial number of at most sixteen characters (letters, digits,
// "-" and "/"), unique for the financial year. payoutd numbers invoices
// INV/26-27/00001 and credit notes CN/26-27/00001: fifteen characters,
// 99,999 a year. Sources: CGST Rules r.46(b) and r.53(1) (third-party
// copies: gstvidhi.com, taxmanagementindia.com).
const (
	InvoiceSeriesMax = 99_999
	invoiceNumberMax = 16
)

// DocumentNumber is the number of the seq-th document of a series ("INV" or
// "CN") in fy.
func DocumentNumber(series string, fy FY, seq int64) string {
	return fmt.Sprintf("%s/%02d-%02d/%05d", series, fy.StartYear%100, (fy.StartYear+1)%100, seq)
}

// ValidDocumentNumber reports whether s meets r.46(b): 1 to 16 characters,
// letters, digits, "-" and "/" only.
func ValidDocumentNumber(s string) bool {
	if s == "" || len(s) > invoiceNumberMax {
		return false
	}
	for _, c := range s {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '/') {
			return false
		}
	}
	return true
}

// The endorsements an export invoice carries (r.46 with r.96A): under a LUT
// the supply is made without payment of integrated tax; without one IGST is
// charged on the invoice.
const (
	EndorsementLUT  = "SUPPLY MEANT FOR EXPORT UNDER LETTER OF UNDERTAKING WITHOUT PAYMENT OF INTEGRATED TAX"
	EndorsementIGST = "SUPPLY MEANT FOR EXPORT ON PAYMENT OF INTEGRATED TAX"
	// PlaceOfSupplyExport is how the invoice states the place of supply of
	// an export of services (IGST Act s.13; state code 96 on the portal).
	PlaceOfSupplyExport = "Outside India (96: other country)"
)

// SACITDesign is the SAC for information technology design and
// development services, the default line code.
const SACITDesign = "998314"

// Rule 96A(1)(b): an export of services under a LUT must be paid for in
// convertible foreign exchange within one year of the invoice date (or a
// longer period allowed), else IGST with interest under s.50(1) is payable
// within fifteen days after it. payoutd watches from 30 days before the
// limit. Interest under s.50(1) is 18% a year; payoutd counts it from the
// day after the 20th of the month after the invoice (when the month's
// GSTR-3B tax would have been due, s.39(7) with r.61) to the last day of
// the fifteen: the start of that period is payoutd's reading, not a
// confirmed one. Sources: CGST Rules r.96A (gstvidhi.com; as substituted by
// Notification 12/2024-Central Tax, taxmanagementindia.com); CGST s.50(1).
const (
	realisationWarnDays   = 30
	realisationGraceDays  = 15
	interestPercentPerAnn = 18
)

// RealisationWatch is rule 96A's position of one LUT invoice on a day.
// Amounts are paise.
type RealisationWatch struct {
	Limit          string // one year after the invoice date
	PayBy          string // fifteen days after Limit
	WatchFrom      string // thirty days before Limit
	Due            bool   // today is on or after WatchFrom and the invoice is not fully collected
	Overdue        bool   // today is after Limit
	Taxable        int64  // the uncollected part of the taxable value
	IGST           int64
	Interest       int64 // s.50(1) on IGST until PayBy
	DaysOfInterest int64
}

// WatchRealisation is the rule 96A position of an invoice dated date with
// taxable value (paise) of which collected/total (in the invoice currency)
// has been received in foreign exchange, on the IST day today.
func WatchRealisation(date string, taxable, collected, total int64, today string) RealisationWatch {
	d, err := time.Parse(time.DateOnly, date)
	if err != nil || total <= 0 {
		return RealisationWatch{}
	}
	limit := d.AddDate(1, 0, 0)
	w := RealisationWatch{Limit: limit.Format(time.DateOnly), PayBy: limit.AddDate(0, 0, realisationGraceDays).Format(time.DateOnly),
		WatchFrom: limit.AddDate(0, 0, -realisationWarnDays).Format(time.DateOnly)}
	short := max(total-collected, 0)
	if short == 0 {
		return w
	}
	w.Taxable = (taxable*short + total/2) / total
	w.IGST = IGST(w.Taxable)
	from := time.Date(d.Year(), d.Month()+1, 21, 0, 0, 0, 0, time.UTC)
	payBy := limit.AddDate(0, 0, realisationGraceDays)
	w.DaysOfInterest = int64(payBy.Sub(from).Hours()/24) + 1
	w.Interest = (w.IGST*interestPercentPerAnn*w.DaysOfInterest + 50*365) / (100 * 365)
	w.Due = today >= w.WatchFrom
	w.Overdue = today > w.Limit
	return w
}

// RealisationMessage says what rule 96A asks of an invoice being watched.
func (w RealisationWatch) RealisationMessage(number string) string {
	return fmt.Sprintf("Invoice %s, exported under a LUT, is not fully paid in foreign exchange: unless it is by %s (one year "+
		"from its date, CGST Rules r.96A(1)(b)), IGST of %s with interest of %s (s.50(1), 18%% a year for %d days) is payable by %s.",
		number, w.Limit, rupeeText(w.IGST), rupeeText(w.Interest), w.DaysOfInterest, w.PayBy)
}
