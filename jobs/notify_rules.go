package jobs

import (
	"fmt"
	"time"

	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/taxes"
)

// advanceTaxLead is how far ahead of an advance-tax date its notice comes.
const advanceTaxLead = 7

// lutLead is how far ahead of the financial year's end a LUT that covers
// nothing after it is noticed: time to furnish next year's on the portal.
const lutLead = 30

// daysUntil counts the IST days from today to day (negative when past).
func daysUntil(today, day string) int {
	a, err1 := india.ParseDay(today)
	b, err2 := india.ParseDay(day)
	if err1 != nil || err2 != nil {
		return -1
	}
	return int(b.Sub(a).Hours()+12) / 24
}

// instalmentNear reports whether an advance-tax date (the 15th of June,
// September, December or March) is within advanceTaxLead days, so only
// then is the year's tax read.
func instalmentNear(today string) bool {
	t, err := india.ParseDay(today)
	if err != nil {
		return false
	}
	for d := 0; d <= advanceTaxLead; d++ {
		day := t.AddDate(0, 0, d)
		if m := day.Month(); day.Day() == 15 && (m == time.June || m == time.September || m == time.December || m == time.March) {
			return true
		}
	}
	return false
}

// advanceTaxNotice is the notice of the next instalment not yet past when
// it falls within advanceTaxLead days and something of it is still unpaid.
func advanceTaxNotice(today string, ins []india.InstalmentPaid) (store.Notice, bool) {
	for _, in := range ins {
		if in.Past || in.DueDate < today {
			continue
		}
		if d := daysUntil(today, in.DueDate); d > advanceTaxLead || in.Shortfall <= 0 {
			return store.Notice{}, false
		}
		return store.Notice{Kind: NoticeAdvanceTax, Occasion: "advance_tax:" + in.DueDate,
			Title: fmt.Sprintf("Advance tax of %s is due by %s", noticeINR(in.Shortfall), longDay(in.DueDate)),
			Body: fmt.Sprintf("%d%% of this year's estimated tax (%s) is due by then; %s is paid towards it. "+
				"An instalment paid short draws interest. Record the challan on the Tax page once paid.",
				in.PercentDue, noticeINR(in.Amount), noticeINR(in.PaidByDate)),
			Link: "/console/tax"}, true
	}
	return store.Notice{}, false
}

// lutEndNear reports whether the financial year ends within lutLead days.
func lutEndNear(today string) bool {
	t, err := india.ParseDay(today)
	if err != nil {
		return false
	}
	end := india.DateOf(india.FYOf(t).End().Add(-time.Millisecond))
	return daysUntil(today, end) <= lutLead
}

// lutNotice tells a user whose LUT covers this financial year and none the
// next that it ends on 31 March: exports after it owe IGST until the next
// year's is furnished.
func lutNotice(today string, luts india.LUTs) (store.Notice, bool) {
	t, err := india.ParseDay(today)
	if err != nil {
		return store.Notice{}, false
	}
	fy := india.FYOf(t)
	cur, ok := luts.For(fy)
	if !ok {
		return store.Notice{}, false
	}
	next := india.FYOf(fy.End())
	if _, ok := luts.For(next); ok {
		return store.Notice{}, false
	}
	return store.Notice{Kind: NoticeLUTExpiring, Occasion: "lut_expiring:" + fy.String(),
		Title: fmt.Sprintf("Your LUT ends on %s", longDay(cur.Until)),
		Body: fmt.Sprintf("LUT %s covers exports of %s only. Furnish the LUT for %s on the GST portal (Form GST RFD-11) "+
			"and record it in Settings; an export after %s without one owes IGST.", cur.ARN, fy, next, longDay(cur.Until)),
		Link: "/console/settings"}, true
}

// realisationNotice tells of an invoice under LUT that rule 96A watches.
func realisationNotice(w taxes.Watch) store.Notice {
	return store.Notice{Kind: NoticeRealisationDue, Occasion: "realisation:" + w.Invoice.ID,
		Title: fmt.Sprintf("Invoice %s must be paid by %s (rule 96A)", w.Invoice.Number, longDay(w.Watch.Limit)),
		Body:  w.Watch.RealisationMessage(w.Invoice.Number),
		Link:  "/console/invoices/" + w.Invoice.ID}
}

// longDay writes a date as 15 Mar 2027.
func longDay(day string) string {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return day
	}
	return t.Format("2 Jan 2006")
}
