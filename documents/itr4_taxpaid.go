package documents

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/payoutd/payoutd/india"
)

// ITR4TaxesPaid is the year's tax paid by challan, as the liability counts
// it: amounts are paise, the challans those not reversed, oldest first.
// BalanceDue and RefundDue are the liability's exact figures, repeated in
// the notes; the file works its own out from its whole-rupee lines.
type ITR4TaxesPaid struct {
	Advance        int64
	SelfAssessment int64
	BalanceDue     int64 // tax and interest less taxes paid, never negative
	RefundDue      int64 // taxes paid beyond tax and interest
	Challans       []ITR4Challan
}

// ITR4Challan is one challan of Schedule IT.
type ITR4Challan struct {
	BSRCode string // 7 digits
	PaidOn  string // date of deposit, YYYY-MM-DD
	Serial  string // 5 digits
	Amount  int64  // paise
}

// itr4TaxPaid is TaxPaid: TDS and TCS are not known to payoutd and are 0
// here (the notes say so), so TotalTaxesPaid is advance plus self-assessment.
type itr4TaxPaid struct {
	TaxesPaid     itr4TaxesPaidLines `json:"TaxesPaid"`
	BalTaxPayable int64              `json:"BalTaxPayable"`
}

type itr4TaxesPaidLines struct {
	AdvanceTax        int64 `json:"AdvanceTax"`
	TDS               int64 `json:"TDS"`
	TCS               int64 `json:"TCS"`
	SelfAssessmentTax int64 `json:"SelfAssessmentTax"`
	TotalTaxesPaid    int64 `json:"TotalTaxesPaid"`
}

type itr4ScheduleIT struct {
	TaxPayment       []itr4TaxPayment `json:"TaxPayment"`
	TotalTaxPayments int64            `json:"TotalTaxPayments"`
}

type itr4TaxPayment struct {
	BSRCode      string `json:"BSRCode"`
	DateDep      string `json:"DateDep"`
	SrlNoOfChaln int64  `json:"SrlNoOfChaln"` // the schema types it as an integer
	Amt          int64  `json:"Amt"`
}

// itr4ExactTaxPaid repeats the taxes-paid figures to the paisa beside the
// other exact figures.
type itr4ExactTaxPaid struct {
	AdvanceTax        INR `json:"advanceTax"`
	SelfAssessmentTax INR `json:"selfAssessmentTax"`
	TotalTaxesPaid    INR `json:"totalTaxesPaid"`
	BalanceDue        INR `json:"balanceDue"`
	RefundDue         INR `json:"refundDue"`
}

// itr4NoteTaxPaid is the note once taxes paid are known, in the year's Act.
func itr4NoteTaxPaid(a india.Act) string {
	return "Indicative figures only. payoutd computed them under " + a.Presumptive + " from " +
		"its reconciled payouts alone: they leave out any other income, deductions, TDS and TCS; " +
		"taxes paid are the advance and self-assessment tax challans recorded in payoutd, and interest " +
		"on advance tax is worked out from them. Check them, complete the parts listed in leftForFiler, " +
		"and validate the return with the income-tax department's utility before filing."
}

// checkITR4TaxesPaid refuses figures no liability can produce.
func checkITR4TaxesPaid(tp *ITR4TaxesPaid) error {
	if tp == nil {
		return nil
	}
	if tp.Advance < 0 || tp.SelfAssessment < 0 || tp.BalanceDue < 0 || tp.RefundDue < 0 {
		return fmt.Errorf("%w: taxes paid must not be negative", ErrITR4Input)
	}
	for _, c := range tp.Challans {
		if len(c.BSRCode) != 7 || len(c.Serial) != 5 || len(c.PaidOn) != 10 || c.Amount <= 0 {
			return fmt.Errorf("%w: challan %s/%s/%s is not complete", ErrITR4Input, c.BSRCode, c.PaidOn, c.Serial)
		}
		if _, err := strconv.ParseInt(c.Serial, 10, 64); err != nil {
			return fmt.Errorf("%w: challan serial %q is not a number", ErrITR4Input, c.Serial)
		}
	}
	return nil
}

// itr4AddTaxPaid fills TaxPaid, Refund and Schedule IT from the liability's
// taxes paid. Every line is whole rupees (challans are), and BalTaxPayable
// (or Refund.RefundDue) is the tax (TotTaxPlusIntrstPay, or NetTaxLiability
// without interest) less TotalTaxesPaid rounded to the nearest ₹10 (s.288B;
// 2025 Act s.516), so it agrees with GET /tax/liability. A challan recorded with paise before they
// were refused is rounded on its own in Schedule IT; if the rows then add
// up to another rupee than the lines, a warning says so.
func itr4AddTaxPaid(ret *itr4Return, notes *ITR4Notes, in ITR4Input) {
	tp := in.TaxesPaid
	if tp == nil {
		return
	}
	adv, self := rupeesHalfUp(tp.Advance), rupeesHalfUp(tp.SelfAssessment)
	total := itr4TotalTax(ret.TaxComputation)
	ret.TaxPaid = &itr4TaxPaid{
		TaxesPaid:     itr4TaxesPaidLines{AdvanceTax: adv, SelfAssessmentTax: self, TotalTaxesPaid: adv + self},
		BalTaxPayable: roundPayableRupees(max(total-adv-self, 0)),
	}
	if refund := roundPayableRupees(max(adv+self-total, 0)); refund > 0 {
		ret.Refund = &itr4Refund{RefundDue: refund}
	}
	if len(tp.Challans) > 0 {
		sched := &itr4ScheduleIT{TaxPayment: make([]itr4TaxPayment, 0, len(tp.Challans))}
		for _, c := range tp.Challans {
			serial, _ := strconv.ParseInt(c.Serial, 10, 64)
			row := itr4TaxPayment{BSRCode: c.BSRCode, DateDep: c.PaidOn, SrlNoOfChaln: serial, Amt: rupeesHalfUp(c.Amount)}
			sched.TaxPayment = append(sched.TaxPayment, row)
			sched.TotalTaxPayments += row.Amt
		}
		ret.ScheduleIT = sched
		if sched.TotalTaxPayments != adv+self {
			notes.Warnings = append(notes.Warnings, fmt.Sprintf("Challans with paise: Schedule IT rows, each rounded to the rupee, total ₹%d "+
				"while TaxesPaid (advance ₹%d + self-assessment ₹%d) is rounded from the exact sums; adjust one line so they agree.",
				sched.TotalTaxPayments, adv, self))
		}
	}
	fy, _ := india.ParseFY(in.FY)
	notes.Note = itr4NoteTaxPaid(india.ActOf(fy))
	notes.ExactFigures.itr4ExactTaxPaid = &itr4ExactTaxPaid{AdvanceTax: INR(tp.Advance), SelfAssessmentTax: INR(tp.SelfAssessment),
		TotalTaxesPaid: INR(tp.Advance + tp.SelfAssessment), BalanceDue: INR(tp.BalanceDue), RefundDue: INR(tp.RefundDue)}
	for i, g := range notes.LeftForFiler {
		if strings.HasPrefix(g.Part, "ITR.ITR4.TaxPaid") {
			notes.LeftForFiler[i] = itr4Gap{"ITR.ITR4.TaxPaid.TaxesPaid (TDS, TCS), TDSonOthThanSals, ScheduleTCS",
				"TDS and TCS are not recorded by payoutd; add them, and TotalTaxesPaid and BalTaxPayable change with them"}
		}
	}
	if ret.Refund != nil {
		notes.LeftForFiler = append(notes.LeftForFiler, itr4Gap{"ITR.ITR4.Refund.BankAccountDtls",
			fmt.Sprintf("taxes paid exceed the tax and interest by ₹%s (Refund.RefundDue); claim it with the refund bank account", FormatINR(ret.Refund.RefundDue))})
	}
}

// roundPayableRupees rounds whole rupees payable or refundable to the
// nearest ₹10, as india.RoundPayable rounds paise.
func roundPayableRupees(rupees int64) int64 { return india.RoundPayable(rupees*100) / 100 }
