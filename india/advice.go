package india

import (
	"fmt"
	"strconv"
	"strings"
)

// The sentences below are the service's one wording of each rule: the
// liability, the ITR-4 prefill and the ITR-4 export all quote them, so no two
// endpoints can word the same rule differently.

// PresumptiveUnavailable explains why presumptive taxation does not apply
// and what does instead; "" when it is available.
func (l Liability) PresumptiveUnavailable() string {
	if l.Presumptive {
		return ""
	}
	r, _, _ := rulesOrLatest(l.FY)
	a := ActOf(l.FY)
	limit, cash := r.PresumptiveReceiptsLimitLowCash, "at most"
	if l.CashReceipts*100 > l.GrossReceipts*r.PresumptiveCashMaxPercent {
		limit, cash = r.PresumptiveReceiptsLimit, "more than"
	}
	msg := fmt.Sprintf("Presumptive taxation under %s is not available: gross receipts of %s exceed %s, its limit when cash receipts are %s %d%% of receipts. "+
		"Income must be computed from books of account (%s)",
		a.Presumptive, rupeeText(l.GrossReceipts), rupeeText(limit), cash, r.PresumptiveCashMaxPercent, a.Books)
	if l.AuditRequired {
		msg += fmt.Sprintf(", a tax audit applies because receipts exceed %s (%s)", rupeeText(r.PresumptiveReceiptsLimit), a.Audit)
	}
	return msg + fmt.Sprintf(", the return is ITR-3 (ITR-4 is not the right return), and advance tax is due in four instalments (%s). "+
		"The income and tax shown assume %d%% of receipts as income for illustration only; they are not a figure the law deems.",
		a.FourInstalments, r.PresumptivePercent)
}

// AdvanceTaxNote says how the year's tax is paid: no advance tax below
// ₹10,000, all by 15 March for a presumptive professional, or four
// instalments, and the interest a shortfall draws.
func (l Liability) AdvanceTaxNote() string {
	a := ActOf(l.FY)
	switch {
	case !l.AdvanceTaxDue:
		return fmt.Sprintf("Estimated tax of %s is below %s, so no advance tax is due (%s): pay it as self-assessment tax with the return.",
			rupeeText(l.EstimatedTaxDue), rupeeText(advanceTaxMinimum), a.AdvanceTaxFloor)
	case l.Presumptive:
		return fmt.Sprintf("Advance tax is due in full by 15 March (%s, for %s); a payment by 31 March still counts as advance tax. "+
			"Interest runs at 1%% on any part not paid by 15 March (%s), and at 1%% a month from 1 April after the %s "+
			"while less than 90%% of the tax was paid as advance tax (%s).",
			a.AllByMarch, a.Presumptive, a.DefermentPresumptive, a.Year, a.InterestDefault)
	}
	return fmt.Sprintf("Advance tax is due in four instalments of 15%%, 45%%, 75%% and 100%% (cumulative) by 15 June, 15 September, 15 December and 15 March (%s); "+
		"interest under %s runs on any shortfall against an instalment already past, and under %s while less than 90%% of the tax was paid as advance tax.",
		a.FourInstalments, a.InterestDeferment, a.InterestDefault)
}

// InterestNote says how the interest shown is worked out, in the year's Act.
func (l Liability) InterestNote() string {
	a := ActOf(l.FY)
	if !l.AdvanceTaxDue {
		return fmt.Sprintf("No interest on advance tax: none is payable below %s of tax (%s).", rupeeText(advanceTaxMinimum), a.AdvanceTaxFloor)
	}
	return fmt.Sprintf("Interest for deferment (%s) and for default (%s) is worked out from the recorded challans, supposing the "+
		"balance is paid on payOn; the amount interest runs on is rounded down to a multiple of ₹100 and a part of a month counts "+
		"as a month (%s); a self-assessment payment goes to the interest accrued by its date first, then to the tax (%s).",
		a.InterestDeferment, a.InterestDefault, a.InterestBase, a.InterestFirst)
}

// ProvisionalNote labels figures computed from an earlier year's table; ""
// when the year has its own.
func (l Liability) ProvisionalNote() string {
	if !l.Provisional {
		return ""
	}
	return ProvisionalNote(l.FY, l.TableFY)
}

// ProvisionalNote is the label for any figure of fy computed with table's
// slabs because fy's Finance Act is not in the tables yet. Each year is
// named as its own Act names it.
func ProvisionalNote(fy, table FY) string {
	return fmt.Sprintf("Provisional: the income-tax slabs for %s are not enacted yet, so these figures use the slabs, rebate and surcharge of %s; they will change if the Finance Act for %s changes them.",
		ActOf(fy).Label(fy), ActOf(table).Label(table), fy)
}

// rupeeText formats paise as "₹12,34,567" for messages: Indian grouping,
// with the paise when there are any ("₹75,00,000.83"), so a sentence never
// states an amount other than the one it compares.
func rupeeText(paise int64) string {
	s := strconv.FormatInt(paise/paisePerRupee, 10)
	if len(s) > 3 {
		head, tail := s[:len(s)-3], s[len(s)-3:]
		var b strings.Builder
		for i, c := range head {
			if i > 0 && (len(head)-i)%2 == 0 {
				b.WriteByte(',')
			}
			b.WriteRune(c)
		}
		s = b.String() + "," + tail
	}
	if p := paise % paisePerRupee; p != 0 {
		s += fmt.Sprintf(".%02d", p)
	}
	return "₹" + s
}
