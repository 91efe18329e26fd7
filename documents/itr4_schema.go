package documents

// The types below mirror the part of the income-tax department's ITR-4
// (Sugam) JSON schema that payoutd can fill, with the schema's own field
// names, spelling included ("Persumptive" is the schema's, not a typo here).
// Structs rather than maps fix the key order, so the export is byte-stable.
// Amounts are whole rupees, as the schema requires.

// itr4File is the whole download: the return under "ITR" and nothing else,
// so the file is exactly what the department's utility reads. payoutd's notes
// on it are served separately (ITR4Notes).
type itr4File struct {
	ITR itr4Root `json:"ITR"`
}

type itr4Root struct {
	ITR4 itr4Return `json:"ITR4"`
}

type itr4Return struct {
	CreationInfo     itr4CreationInfo     `json:"CreationInfo"`
	FormITR4         itr4Form             `json:"Form_ITR4"`
	PersonalInfo     itr4PersonalInfo     `json:"PersonalInfo"`
	IncomeDeductions itr4IncomeDeductions `json:"IncomeDeductions"`
	TaxComputation   itr4TaxComputation   `json:"TaxComputation"`
	ScheduleBP       itr4ScheduleBP       `json:"ScheduleBP"`
	TaxPaid          *itr4TaxPaid         `json:"TaxPaid,omitempty"`
	Refund           *itr4Refund          `json:"Refund,omitempty"`
	ScheduleIT       *itr4ScheduleIT      `json:"ScheduleIT,omitempty"`
}

// itr4Refund carries the refund the lines work out; BankAccountDtls is the
// filer's (leftForFiler).
type itr4Refund struct {
	RefundDue int64 `json:"RefundDue"`
}

// itr4CreationInfo leaves out SWCreatedBy, JSONCreatedBy, IntermediaryCity
// and Digest: they identify the ITD-registered utility that uploads the
// return, which payoutd is not.
type itr4CreationInfo struct {
	SWVersionNo      string `json:"SWVersionNo"`
	JSONCreationDate string `json:"JSONCreationDate"` // YYYY-MM-DD, IST
}

type itr4Form struct {
	FormName       string `json:"FormName"`
	Description    string `json:"Description"`
	AssessmentYear string `json:"AssessmentYear"` // first year of the AY: "2026" for 2026-27
	SchemaVer      string `json:"SchemaVer"`
	FormVer        string `json:"FormVer"`
}

type itr4PersonalInfo struct {
	AssesseeName itr4AssesseeName `json:"AssesseeName"`
	PAN          string           `json:"PAN,omitempty"`
	Status       string           `json:"Status,omitempty"` // I, H or F, from the PAN's holder type
	Address      itr4Address      `json:"Address"`
}

type itr4AssesseeName struct {
	SurNameOrOrgName string `json:"SurNameOrOrgName,omitempty"`
}

type itr4Address struct {
	CountryCodeMobile int64  `json:"CountryCodeMobile,omitempty"`
	MobileNo          int64  `json:"MobileNo,omitempty"` // the schema types it as an integer
	EmailAddress      string `json:"EmailAddress,omitempty"`
}

type itr4IncomeDeductions struct {
	IncomeFromBusinessProf int64 `json:"IncomeFromBusinessProf"`
	GrossTotIncome         int64 `json:"GrossTotIncome"`
	TotalIncome            int64 `json:"TotalIncome"`
}

type itr4TaxComputation struct {
	TotalTaxPayable     int64          `json:"TotalTaxPayable"`
	Rebate87A           int64          `json:"Rebate87A"`
	TaxPayableOnRebate  int64          `json:"TaxPayableOnRebate"`
	EducationCess       int64          `json:"EducationCess"`
	GrossTaxLiability   int64          `json:"GrossTaxLiability"`
	NetTaxLiability     int64          `json:"NetTaxLiability"`
	IntrstPay           *itr4IntrstPay `json:"IntrstPay,omitempty"`
	TotTaxPlusIntrstPay *int64         `json:"TotTaxPlusIntrstPay,omitempty"`
}

// itr4IntrstPay is the interest block; the schema keeps the 1961 Act's
// section numbers in its field names for every year. payoutd fills the
// advance-tax interest; the late-return interest and fee are the filer's.
type itr4IntrstPay struct {
	IntrstPayUs234A   int64 `json:"IntrstPayUs234A"`
	IntrstPayUs234B   int64 `json:"IntrstPayUs234B"`
	IntrstPayUs234C   int64 `json:"IntrstPayUs234C"`
	LateFilingFee234F int64 `json:"LateFilingFee234F"`
}

type itr4ScheduleBP struct {
	NatOfBus44ADA       []itr4NatOfBus          `json:"NatOfBus44ADA"`
	PersumptiveInc44ADA itr4PersumptiveInc44ADA `json:"PersumptiveInc44ADA"`
}

// itr4NatOfBus names the profession; CodeADA is left to the filer because
// the schema's profession-code list could not be confirmed.
type itr4NatOfBus struct {
	NameOfBusiness string `json:"NameOfBusiness"`
}

type itr4PersumptiveInc44ADA struct {
	GrsReceipt                 int64 `json:"GrsReceipt"`
	GrsTrnOverBank44ADA        int64 `json:"GrsTrnOverBank44ADA"`
	GrsTotalTrnOverInCash44ADA int64 `json:"GrsTotalTrnOverInCash44ADA"`
	GrsTrnOverAnyOthMode44ADA  int64 `json:"GrsTrnOverAnyOthMode44ADA"`
	TotPersumptiveInc44ADA     int64 `json:"TotPersumptiveInc44ADA"`
}
