package documents

import (
	"fmt"
	"strings"
)

// itr4Notes is the "_payoutd" object beside the return: what the figures
// are, where they came from, and what the filer still has to supply. It sits
// outside "ITR" so that the return itself holds schema fields only.
type itr4Notes struct {
	Generator        string    `json:"generator"`
	Indicative       bool      `json:"indicative"`
	Note             string    `json:"note"`
	FinancialYear    string    `json:"financialYear"`
	AssessmentYear   string    `json:"assessmentYear"`
	Section          string    `json:"section"`
	Source           string    `json:"source"`
	TransactionCount int       `json:"transactionCount"`
	Rounding         string    `json:"rounding"`
	ExactFigures     itr4Exact `json:"exactFigures"`
	GeneratedAt      string    `json:"generatedAt"`
	LeftForFiler     []itr4Gap `json:"leftForFiler"`
	Warnings         []string  `json:"warnings"`
}

// itr4Exact repeats the service's figures to the paisa, so the rounding in
// the return can be checked against them.
type itr4Exact struct {
	GrossReceipts     INR `json:"grossReceipts"`
	PresumptiveIncome INR `json:"presumptiveIncome"`
	TaxableIncome     INR `json:"taxableIncome"`
	TaxOnIncome       INR `json:"taxOnIncome"`
	Rebate87A         INR `json:"rebate87A"`
	Surcharge         INR `json:"surcharge"`
	Cess              INR `json:"cess"`
	TaxDue            INR `json:"taxDue"`
	*itr4ExactTaxPaid     // when taxes paid are known
}

// itr4Gap names a part of the return payoutd leaves for the filer and why.
type itr4Gap struct {
	Part   string `json:"part"`
	Reason string `json:"reason"`
}

const itr4Note = "Indicative figures only. payoutd computed them under section 44ADA from " +
	"its reconciled payouts alone: they leave out any other income, deductions, TDS, TCS " +
	"and taxes already paid. Check them, complete the parts listed in leftForFiler, and " +
	"validate the return with the income-tax department's utility before filing."

// itr4FixedGaps are always left out: payoutd never holds this information.
var itr4FixedGaps = []itr4Gap{
	{"ITR.ITR4.CreationInfo (SWCreatedBy, JSONCreatedBy, IntermediaryCity, Digest)", "set by the ITD-registered utility that uploads the return"},
	{"ITR.ITR4.PersonalInfo (DOB, AadhaarCardNo, EmployerCategory, SecondaryAdd)", "not held by payoutd"},
	{"ITR.ITR4.PersonalInfo.Address (ResidenceNo, LocalityOrArea, CityOrTownOrDistrict, StateCode, CountryCode, PinCode)", "not held by payoutd"},
	{"ITR.ITR4.FilingStatus", "filing section, tax regime choice and due date are the filer's decisions"},
	{"ITR.ITR4.ScheduleBP.NatOfBus44ADA[].CodeADA and Description", "the profession code is the filer's to choose"},
	{"ITR.ITR4.IncomeDeductions (salary, house property, other sources, Chapter VI-A)", "payoutd sees only its own payouts"},
	{"ITR.ITR4.TaxComputation.IntrstPay and TotTaxPlusIntrstPay", "interest under ss.234A/B/C and the s.234F fee depend on when tax is paid and the return filed"},
	{"ITR.ITR4.TaxPaid, ScheduleIT, TDSonOthThanSals, ScheduleTCS", "advance and self-assessment tax challans, TDS and TCS are not recorded by payoutd"},
	{"ITR.ITR4.Refund", "the refund bank account is not held by payoutd"},
	{"ITR.ITR4.Verification", "only the filer can verify the return"},
}

// Thresholds for the warnings, in paise. ITR-4 is for total income up to
// ₹50 lakh; 44ADA allows gross receipts up to ₹75 lakh when cash receipts
// are at most 5%, which is always so for bank-credited remittances.
const (
	itr4IncomeLimit  = 50_00_000_00
	itr4ReceiptLimit = 75_00_000_00
)

func itr4BuildNotes(in ITR4Input, fyStart int, mobileOK bool) itr4Notes {
	gaps := append([]itr4Gap(nil), itr4FixedGaps[:1]...)
	if strings.TrimSpace(in.Name) == "" {
		gaps = append(gaps, itr4Gap{"ITR.ITR4.PersonalInfo.AssesseeName.SurNameOrOrgName", "no name on the profile"})
	} else {
		// The name is not split: where the surname falls is the PAN
		// record's business, not something to guess from word order.
		gaps = append(gaps, itr4Gap{"ITR.ITR4.PersonalInfo.AssesseeName", "the full name is in SurNameOrOrgName; move the first name to FirstName to match the PAN record"})
	}
	gaps = append(gaps, itr4FixedGaps[1:]...)
	if strings.TrimSpace(in.PAN) == "" {
		gaps = append(gaps, itr4Gap{"ITR.ITR4.PersonalInfo.PAN", "no PAN on the profile"})
	}
	if strings.TrimSpace(in.Email) == "" {
		gaps = append(gaps, itr4Gap{"ITR.ITR4.PersonalInfo.Address.EmailAddress", "no email on the profile"})
	}
	if !mobileOK {
		gaps = append(gaps, itr4Gap{"ITR.ITR4.PersonalInfo.Address (CountryCodeMobile, MobileNo)", "no 10-digit Indian mobile number on the profile"})
	}
	ay := fmt.Sprintf("%d-%02d", fyStart+1, (fyStart+2)%100)
	return itr4Notes{
		Generator:        "payoutd",
		Indicative:       true,
		Note:             itr4Note,
		FinancialYear:    in.FY,
		AssessmentYear:   ay,
		Section:          "44ADA",
		Source:           "reconciled payouts only",
		TransactionCount: in.TransactionCount,
		Rounding:         "amounts in ITR are whole rupees, each rounded half-up from paise; totals are sums of the rounded lines",
		ExactFigures: itr4Exact{
			GrossReceipts: INR(in.GrossReceipts), PresumptiveIncome: INR(in.PresumptiveIncome),
			TaxableIncome: INR(in.TaxableIncome), TaxOnIncome: INR(in.TaxOnIncome),
			Rebate87A: INR(in.Rebate87A), Surcharge: INR(in.Surcharge),
			Cess: INR(in.Cess), TaxDue: INR(in.TaxDue),
		},
		GeneratedAt:  formatTimestamp(in.GeneratedAt),
		LeftForFiler: gaps,
		Warnings:     itr4Warnings(in),
	}
}

// itr4Warnings flags inputs for which ITR-4 or 44ADA may not be available;
// the export is still produced so the filer can see the figures.
func itr4Warnings(in ITR4Input) []string {
	w := []string{}
	if in.TaxableIncome > itr4IncomeLimit {
		w = append(w, "Total income is above ₹50,00,000: ITR-4 is only for total income up to ₹50 lakh.")
	}
	if in.Surcharge > 0 {
		w = append(w, "A surcharge of ₹"+FormatINR(in.Surcharge)+" applies; ITR-4 has no line for it "+
			"(surcharge arises only above ₹50 lakh), so it is not in TaxComputation.")
	}
	if in.GrossReceipts > itr4ReceiptLimit {
		w = append(w, "Gross receipts are above ₹75,00,000, the section 44ADA limit: presumptive taxation may not be available.")
	}
	return w
}
