package documents

import (
	"strings"

	"github.com/payoutd/payoutd/india"
)

// ITR4Notes travel with the ITR-4 file but outside it (the prefill's notes
// field): what the figures are, where they came from, and what the filer
// still has to supply. The file itself holds schema fields only.
type ITR4Notes struct {
	Generator        string `json:"generator"`
	Indicative       bool   `json:"indicative"`
	Note             string `json:"note"`
	FinancialYear    string `json:"financialYear"`
	AssessmentYear   string `json:"assessmentYear"`
	Section          string `json:"section"`
	Source           string `json:"source"`
	TransactionCount int    `json:"transactionCount"`
	Rounding         string `json:"rounding"`
	// Schema says which published ITR-4 schema the file follows.
	Schema       ITR4Schema `json:"schema"`
	ExactFigures itr4Exact  `json:"exactFigures"`
	GeneratedAt  string     `json:"generatedAt"`
	LeftForFiler []itr4Gap  `json:"leftForFiler"`
	Warnings     []string   `json:"warnings"`
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

// itr4Note is the note without taxes paid, in the year's Act.
func itr4Note(a india.Act) string {
	return "Indicative figures only. payoutd computed them under " + a.Presumptive + " from " +
		"its reconciled payouts alone: they leave out any other income, deductions, TDS, TCS " +
		"and taxes already paid. Check them, complete the parts listed in leftForFiler, and " +
		"validate the return with the income-tax department's utility before filing."
}

func itr4Rounding(a india.Act) string {
	return "amounts in ITR are whole rupees: gross receipts rounded half-up; presumptive income 50% of that, " +
		"rounded up so it is never below half; total income rounded to ₹10 (" + a.Rounding + "); each tax line as the liability " +
		"endpoint states it; the tax payable rounded to ₹10 (" + a.Rounding + ") is taxDue in exactFigures; interest and " +
		"taxes paid are whole rupees, and BalTaxPayable (or Refund.RefundDue) is TotTaxPlusIntrstPay less TotalTaxesPaid " +
		"rounded to the nearest ₹10 (" + a.Rounding + " rounds any amount payable and any refund due)"
}

// itr4FixedGaps are always left out: payoutd never holds this information.
var itr4FixedGaps = []itr4Gap{
	{"ITR.ITR4.CreationInfo (SWCreatedBy, JSONCreatedBy, IntermediaryCity, Digest)", "set by the ITD-registered utility that uploads the return"},
	{"ITR.ITR4.PersonalInfo (DOB, AadhaarCardNo, EmployerCategory, SecondaryAdd)", "not held by payoutd"},
	{"ITR.ITR4.PersonalInfo.Address (ResidenceNo, LocalityOrArea, CityOrTownOrDistrict, StateCode, CountryCode, PinCode)", "not held by payoutd"},
	{"ITR.ITR4.FilingStatus", "filing section, tax regime choice and due date are the filer's decisions"},
	{"ITR.ITR4.ScheduleBP.NatOfBus44ADA[].CodeADA and Description", "the profession code is the filer's to choose"},
	{"ITR.ITR4.IncomeDeductions (salary, house property, other sources, Chapter VI-A)", "payoutd sees only its own payouts"},
	{"ITR.ITR4.TaxComputation.IntrstPay and TotTaxPlusIntrstPay", "interest and the late-filing fee depend on when tax is paid and the return filed"},
	{"ITR.ITR4.TaxPaid, ScheduleIT, TDSonOthThanSals, ScheduleTCS", "advance and self-assessment tax challans, TDS and TCS are not recorded by payoutd"},
	{"ITR.ITR4.Refund", "the refund bank account is not held by payoutd"},
	{"ITR.ITR4.Verification", "only the filer can verify the return"},
}

// BuildITR4Notes returns the notes for the file BuildITR4 makes from in.
func BuildITR4Notes(in ITR4Input) (ITR4Notes, error) {
	fyStart, _, err := itr4Years(in.FY, in.AssessmentYear)
	if err != nil {
		return ITR4Notes{}, err
	}
	_, mobileOK := indianMobile(in.Phone)
	notes := itr4BuildNotes(in, fyStart, mobileOK)
	ret := itr4Return{TaxComputation: itr4Tax(in)}
	itr4AddTaxPaid(&ret, &notes, in)
	return notes, nil
}

func itr4BuildNotes(in ITR4Input, fyStart int, mobileOK bool) ITR4Notes {
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
	if in.Interest != nil {
		for i, g := range gaps {
			if strings.HasPrefix(g.Part, "ITR.ITR4.TaxComputation.IntrstPay") {
				gaps[i] = itr4Gap{"ITR.ITR4.TaxComputation.IntrstPay (IntrstPayUs234A, LateFilingFee234F)",
					"interest for a late return and the late-filing fee depend on when the return is filed; add them, and TotTaxPlusIntrstPay and BalTaxPayable change with them"}
			}
		}
	}
	fy := india.FY{StartYear: fyStart}
	act := india.ActOf(fy)
	ay := fy.AssessmentYear()
	return ITR4Notes{
		Generator:        "payoutd",
		Indicative:       true,
		Note:             itr4Note(act),
		FinancialYear:    in.FY,
		AssessmentYear:   ay,
		Section:          act.Presumptive,
		Source:           "reconciled payouts only",
		TransactionCount: in.TransactionCount,
		Rounding:         itr4Rounding(act),
		Schema:           ITR4SchemaFor(fy),
		ExactFigures: itr4Exact{
			GrossReceipts: INR(in.GrossReceipts), PresumptiveIncome: INR(in.PresumptiveIncome),
			TaxableIncome: INR(in.TaxableIncome), TaxOnIncome: INR(in.TaxOnIncome),
			Rebate87A: INR(in.Rebate87A), Surcharge: INR(in.Surcharge),
			Cess: INR(in.Cess), TaxDue: INR(in.TaxDue),
		},
		GeneratedAt:  formatTimestamp(in.GeneratedAt),
		LeftForFiler: gaps,
		Warnings:     itr4Warnings(in, ITR4SchemaFor(fy)),
	}
}

// itr4Warnings: the caveats left once ITR-4 applies at all (the service
// refuses the file above the presumptive limit): a year whose slabs are not
// enacted, and one whose form is not notified.
func itr4Warnings(in ITR4Input, schema ITR4Schema) []string {
	out := []string{}
	if in.Provisional != "" {
		out = append(out, in.Provisional)
	}
	if schema.Provisional {
		out = append(out, schema.Note)
	}
	return out
}
