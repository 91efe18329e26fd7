package documents

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// ErrITR4Input is wrapped by every error BuildITR4 returns, so a handler can
// answer 400 with errors.Is instead of reading the message.
var ErrITR4Input = errors.New("documents: invalid ITR-4 input")

// ITR4Input is a financial year's 44ADA position as the tax job computed it
// from reconciled payouts. Amounts are paise.
type ITR4Input struct {
	FY             string // financial year "2025-26"
	AssessmentYear string // "2026-27" or "2026"; derived from FY when empty
	Name           string
	PAN            string
	Email          string
	Phone          string

	GrossReceipts     int64
	PresumptiveIncome int64
	TaxableIncome     int64
	TaxOnIncome       int64 // tax at slab rates, before the s.87A rebate
	Rebate87A         int64
	Surcharge         int64
	Cess              int64
	TaxDue            int64 // the total of the lines rounded to ₹10 (s.288B)

	TransactionCount int
	GeneratedAt      time.Time
	// Provisional labels a year whose slabs are not enacted yet; "" otherwise.
	Provisional string

	// TaxesPaid fills TaxPaid and Schedule IT; nil leaves them to the filer.
	TaxesPaid *ITR4TaxesPaid
	// Interest fills IntrstPay and TotTaxPlusIntrstPay; nil leaves them to
	// the filer.
	Interest *ITR4Interest
}

// ITR4Interest is the interest on advance tax, whole rupees in paise:
// default (s.234B; 2025 Act s.424) and deferment (s.234C; s.425).
type ITR4Interest struct {
	Default   int64
	Deferment int64
}

// itr4Description is Form_ITR4.Description: the form's eligibility line as
// the e-filing downloads catalogue words it.
const itr4Description = "For Individuals, HUFs and Firms (other than LLP) being a resident " +
	"having total income upto Rs.50 lakh and having income from business and profession " +
	"which is computed under sections 44AD, 44ADA or 44AE"

// ist buckets JSONCreationDate by the Indian calendar day, like every other
// Indian period in payoutd; a fixed zone needs no tz database.
var ist = time.FixedZone("IST", 5*3600+30*60)

// BuildITR4 returns indented ITR-4 JSON prefilled with the 44ADA figures in
// whole rupees: gross receipts rounded half-up, and every other amount as the
// liability states it (already whole rupees), so the return and the liability
// agree to the rupee and the return's own cross-checks (gross liability = tax
// after rebate + cess) hold exactly. The file holds the return alone; what
// payoutd cannot know is listed by BuildITR4Notes instead.
func BuildITR4(in ITR4Input) ([]byte, error) {
	fyStart, ayStart, err := itr4Years(in.FY, in.AssessmentYear)
	if err != nil {
		return nil, err
	}
	if in.GeneratedAt.IsZero() {
		return nil, fmt.Errorf("%w: GeneratedAt is required", ErrITR4Input)
	}
	if err := itr4CheckAmounts(in); err != nil {
		return nil, err
	}
	if err := checkITR4TaxesPaid(in.TaxesPaid); err != nil {
		return nil, err
	}
	if in.Interest != nil && (in.Interest.Default < 0 || in.Interest.Deferment < 0) {
		return nil, fmt.Errorf("%w: interest must not be negative", ErrITR4Input)
	}

	mobile, mobileOK := indianMobile(in.Phone)
	ret := itr4Return{
		CreationInfo: itr4CreationInfo{
			SWVersionNo:      "1.0",
			JSONCreationDate: in.GeneratedAt.In(ist).Format(time.DateOnly),
		},
		FormITR4: itr4Form{
			FormName:       "ITR-4",
			Description:    itr4Description,
			AssessmentYear: strconv.Itoa(ayStart),
			SchemaVer:      itr4PayloadVersion,
			FormVer:        itr4PayloadVersion,
		},
		PersonalInfo: itr4PersonalInfo{
			AssesseeName: itr4AssesseeName{SurNameOrOrgName: strings.TrimSpace(in.Name)},
			PAN:          strings.ToUpper(strings.TrimSpace(in.PAN)),
			Status:       panStatus(in.PAN),
			Address:      itr4Address{EmailAddress: strings.TrimSpace(in.Email)},
		},
		IncomeDeductions: itr4IncomeDeductions{
			IncomeFromBusinessProf: rupeesHalfUp(in.PresumptiveIncome),
			// payoutd sees no other head of income, so gross total = business.
			GrossTotIncome: rupeesHalfUp(in.PresumptiveIncome),
			TotalIncome:    rupeesHalfUp(in.TaxableIncome),
		},
		TaxComputation: itr4Tax(in),
		ScheduleBP:     itr4Schedule(in),
	}
	if mobileOK {
		ret.PersonalInfo.Address.CountryCodeMobile = 91
		ret.PersonalInfo.Address.MobileNo = mobile
	}

	// The notes are served apart (BuildITR4Notes); building them here keeps
	// one code path for what taxes paid add to the return and to them.
	notes := itr4BuildNotes(in, fyStart, mobileOK)
	itr4AddTaxPaid(&ret, &notes, in)
	out, err := json.MarshalIndent(itr4File{ITR: itr4Root{ITR4: ret}}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("documents: encode ITR-4: %w", err)
	}
	return append(out, '\n'), nil
}

// itr4Tax fills TaxComputation from the liability's whole-rupee lines and,
// when known, the interest: TotTaxPlusIntrstPay = NetTaxLiability +
// IntrstPay, exactly. Surcharge has no line: it only arises above ₹50 lakh
// of income, where ITR-4 cannot be used (itr4CheckAmounts refuses it).
func itr4Tax(in ITR4Input) itr4TaxComputation {
	tax := rupeesHalfUp(in.TaxOnIncome)
	rebate := min(rupeesHalfUp(in.Rebate87A), tax)
	afterRebate := tax - rebate
	cess := rupeesHalfUp(in.Cess)
	t := itr4TaxComputation{
		TotalTaxPayable:    tax,
		Rebate87A:          rebate,
		TaxPayableOnRebate: afterRebate,
		EducationCess:      cess,
		GrossTaxLiability:  afterRebate + cess,
		NetTaxLiability:    afterRebate + cess, // no relief for arrears of salary is known to payoutd
	}
	if in.Interest != nil {
		ip := &itr4IntrstPay{IntrstPayUs234B: rupeesHalfUp(in.Interest.Default), IntrstPayUs234C: rupeesHalfUp(in.Interest.Deferment)}
		total := t.NetTaxLiability + ip.IntrstPayUs234A + ip.IntrstPayUs234B + ip.IntrstPayUs234C + ip.LateFilingFee234F
		t.IntrstPay, t.TotTaxPlusIntrstPay = ip, &total
	}
	return t
}

// itr4TotalTax is the tax the taxes paid are set against: TotTaxPlusIntrstPay
// when the interest is known, else NetTaxLiability.
func itr4TotalTax(t itr4TaxComputation) int64 {
	if t.TotTaxPlusIntrstPay != nil {
		return *t.TotTaxPlusIntrstPay
	}
	return t.NetTaxLiability
}

// itr4Schedule reports all receipts as received through banks: payoutd only
// ever sees foreign remittances credited to a bank account, never cash.
func itr4Schedule(in ITR4Input) itr4ScheduleBP {
	gross := rupeesHalfUp(in.GrossReceipts)
	var natures []itr4NatOfBus
	if name := strings.TrimSpace(in.Name); name != "" {
		natures = append(natures, itr4NatOfBus{NameOfBusiness: name})
	} else {
		natures = []itr4NatOfBus{}
	}
	return itr4ScheduleBP{
		NatOfBus44ADA: natures,
		PersumptiveInc44ADA: itr4PersumptiveInc44ADA{
			GrsReceipt:                 gross,
			GrsTrnOverBank44ADA:        gross,
			GrsTotalTrnOverInCash44ADA: 0,
			GrsTrnOverAnyOthMode44ADA:  0,
			TotPersumptiveInc44ADA:     rupeesHalfUp(in.PresumptiveIncome),
		},
	}
}

// itr4Years checks FY "YYYY-YY" and returns its first year and the AY's
// first year, which must be the next one.
func itr4Years(fy, ay string) (fyStart, ayStart int, err error) {
	fyStart, ok := parseYearRange(fy)
	if !ok {
		return 0, 0, fmt.Errorf("%w: FY %q is not YYYY-YY", ErrITR4Input, fy)
	}
	if ay == "" {
		return fyStart, fyStart + 1, nil
	}
	ayStart, ok = parseYearRange(ay)
	if !ok {
		ayStart, err = strconv.Atoi(ay)
		ok = err == nil && len(ay) == 4
	}
	if !ok {
		return 0, 0, fmt.Errorf("%w: AssessmentYear %q is not YYYY-YY or YYYY", ErrITR4Input, ay)
	}
	if ayStart != fyStart+1 {
		return 0, 0, fmt.Errorf("%w: AssessmentYear %q does not follow FY %q", ErrITR4Input, ay, fy)
	}
	return fyStart, ayStart, nil
}

// parseYearRange reads "2025-26", insisting the second year follows the first.
func parseYearRange(s string) (int, bool) {
	if len(s) != 7 || s[4] != '-' {
		return 0, false
	}
	start, err1 := strconv.Atoi(s[:4])
	end, err2 := strconv.Atoi(s[5:])
	if err1 != nil || err2 != nil || (start+1)%100 != end {
		return 0, false
	}
	return start, true
}

func itr4CheckAmounts(in ITR4Input) error {
	for _, a := range []struct {
		name  string
		paise int64
	}{
		{"GrossReceipts", in.GrossReceipts}, {"PresumptiveIncome", in.PresumptiveIncome},
		{"TaxableIncome", in.TaxableIncome}, {"TaxOnIncome", in.TaxOnIncome},
		{"Rebate87A", in.Rebate87A}, {"Surcharge", in.Surcharge},
		{"Cess", in.Cess}, {"TaxDue", in.TaxDue},
	} {
		if a.paise < 0 {
			return fmt.Errorf("%w: %s is negative", ErrITR4Input, a.name)
		}
	}
	if in.TransactionCount < 0 {
		return fmt.Errorf("%w: TransactionCount is negative", ErrITR4Input)
	}
	// s.44ADA deems at least 50% of the receipts the return reports.
	if gross := rupeesHalfUp(in.GrossReceipts); 2*rupeesHalfUp(in.PresumptiveIncome) < gross {
		return fmt.Errorf("%w: PresumptiveIncome is below 50%% of GrossReceipts (₹%d)", ErrITR4Input, gross)
	}
	if in.Surcharge > 0 {
		return fmt.Errorf("%w: a surcharge arises only above ₹50 lakh of income, where ITR-4 cannot be used", ErrITR4Input)
	}
	return nil
}

// panStatus maps the PAN's fourth character (holder type) to the return's
// Status; other holder types cannot file ITR-4, so Status is left out.
func panStatus(pan string) string {
	pan = strings.ToUpper(strings.TrimSpace(pan))
	if len(pan) != 10 {
		return ""
	}
	switch pan[3] {
	case 'P':
		return "I"
	case 'H':
		return "H"
	case 'F':
		return "F"
	}
	return ""
}

// indianMobile reads a 10-digit Indian mobile number from the free-form phone
// on the profile ("+91 98765 43210", "098765-43210"); anything else is left
// for the filer rather than guessed at.
func indianMobile(phone string) (int64, bool) {
	var digits strings.Builder
	for _, r := range strings.TrimSpace(phone) {
		switch {
		case unicode.IsDigit(r) && r < unicode.MaxASCII:
			digits.WriteRune(r)
		case r == ' ' || r == '-' || r == '(' || r == ')' || r == '.':
		case r == '+' && digits.Len() == 0:
		default:
			return 0, false
		}
	}
	d := digits.String()
	plus := strings.HasPrefix(strings.TrimSpace(phone), "+")
	switch {
	case len(d) == 12 && strings.HasPrefix(d, "91"):
		d = d[2:]
	case len(d) == 11 && strings.HasPrefix(d, "0") && !plus:
		d = d[1:]
	case len(d) != 10 || plus:
		return 0, false
	}
	if d[0] < '6' {
		return 0, false
	}
	n, err := strconv.ParseInt(d, 10, 64)
	return n, err == nil
}
