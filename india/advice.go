package india

import (
	"fmt"
	"strconv"
	"strings"
)

// The sentences below are the service's one wording of each rule: the
// liability, the ITR-4 prefill and the ITR-4 export all quote them, so no two
// endpoints can word the same rule differently.

// PresumptiveUnavailable explains why s.44ADA does not apply and what does
// instead; "" when it is available.
func (l Liability) PresumptiveUnavailable() string {
	if l.Presumptive {
		return ""
	}
	r, _, _ := rulesOrLatest(l.FY)
	limit, cash := r.PresumptiveReceiptsLimitLowCash, "at most"
	if l.CashReceipts*100 > l.GrossReceipts*r.PresumptiveCashMaxPercent {
		limit, cash = r.PresumptiveReceiptsLimit, "more than"
	}
	msg := fmt.Sprintf("Presumptive taxation under %s is not available: gross receipts of %s exceed %s, its limit when cash receipts are %s %d%% of receipts. "+
		"Income must be computed from books of account (s.44AA)",
		r.PresumptiveSection, rupeeText(l.GrossReceipts), rupeeText(limit), cash, r.PresumptiveCashMaxPercent)
	if l.AuditRequired {
		msg += fmt.Sprintf(", a tax audit applies because receipts exceed %s (s.44AB)", rupeeText(r.PresumptiveReceiptsLimit))
	}
	return msg + fmt.Sprintf(", the return is ITR-3 (ITR-4 is not the right return), and advance tax is due in four instalments (%s). "+
		"The income and tax shown assume %d%% of receipts as income for illustration only; they are not a figure the law deems.",
		r.AdvanceTaxSection+"(1)(a)", r.PresumptivePercent)
}

// AdvanceTaxNote says how the year's tax is paid: no advance tax below
// ₹10,000, all by 15 March under s.44ADA, or four instalments.
func (l Liability) AdvanceTaxNote() string {
	r, _, _ := rulesOrLatest(l.FY)
	switch {
	case !l.AdvanceTaxDue:
		return fmt.Sprintf("Estimated tax of %s is below %s, so no advance tax is due (%s): pay it as self-assessment tax with the return.",
			rupeeText(l.EstimatedTaxDue), rupeeText(advanceTaxMinimum), r.AdvanceTaxMinimumSection)
	case l.Presumptive:
		return fmt.Sprintf("Advance tax is due in full by 15 March (%s, for %s); a payment by 31 March still counts as advance tax.",
			r.AdvanceTaxSection, r.PresumptiveSection)
	}
	return fmt.Sprintf("Advance tax is due in four instalments of 15%%, 45%%, 75%% and 100%% (cumulative) by 15 June, 15 September, 15 December and 15 March (%s(1)(a)); "+
		"interest under s.234C runs on any shortfall against an instalment already past.", r.AdvanceTaxSection)
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
// slabs because fy's Finance Act is not in the tables yet.
func ProvisionalNote(fy, table FY) string {
	return fmt.Sprintf("Provisional: the income-tax slabs for FY %s are not enacted yet, so these figures use the FY %s slabs, rebate and surcharge; they will change if the Finance Act for %s changes them.",
		fy, table, fy)
}

// rupeeText formats paise as "₹12,34,567" (whole rupees, Indian grouping,
// paise dropped) for messages.
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
	return "₹" + s
}
