package documents

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

// testITR4Input is FY 2025-26 under the new regime: 50% of ₹36,45,250.75
// presumptive, slab tax ₹1,64,525.08, no rebate above ₹12 lakh, 4% cess.
func testITR4Input() ITR4Input {
	return ITR4Input{
		FY:                "2025-26",
		AssessmentYear:    "2026-27",
		Name:              "Asha Raghunathan",
		PAN:               "ABCPR1234K",
		Email:             "asha@example.in",
		Phone:             "+91 98765 43210",
		GrossReceipts:     364525075,
		PresumptiveIncome: 182262538,
		TaxableIncome:     182262538,
		TaxOnIncome:       16452508,
		Rebate87A:         0,
		Surcharge:         0,
		Cess:              658100,
		TaxDue:            17110608,
		TransactionCount:  14,
		GeneratedAt:       time.Date(2026, 5, 31, 20, 15, 0, 0, time.UTC), // 1 June in IST
	}
}

// decodeITR4 builds the export and reads it back as generic JSON, as a
// filing tool would.
func decodeITR4(t *testing.T, in ITR4Input) (itr4 map[string]any, notes map[string]any) {
	t.Helper()
	is := is.New(t)
	raw, err := BuildITR4(in)
	is.NoErr(err)
	var doc map[string]any
	is.NoErr(json.Unmarshal(raw, &doc))
	return doc["ITR"].(map[string]any)["ITR4"].(map[string]any), doc["_payoutd"].(map[string]any)
}

func path(m map[string]any, keys ...string) any {
	var v any = m
	for _, k := range keys {
		obj, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = obj[k]
	}
	return v
}

func TestBuildITR4(t *testing.T) {
	t.Run("Golden", func(t *testing.T) {
		is := is.New(t)
		got, err := BuildITR4(testITR4Input())
		is.NoErr(err)
		golden(t, "itr4.golden.json", got)
	})

	t.Run("Deterministic", func(t *testing.T) {
		is := is.New(t)
		a, err := BuildITR4(testITR4Input())
		is.NoErr(err)
		b, err := BuildITR4(testITR4Input())
		is.NoErr(err)
		is.Equal(string(a), string(b))
	})

	t.Run("OK", func(t *testing.T) {
		is := is.New(t)
		r, notes := decodeITR4(t, testITR4Input())
		is.Equal(path(r, "Form_ITR4", "AssessmentYear"), "2026")
		is.Equal(path(r, "CreationInfo", "JSONCreationDate"), "2026-06-01") // IST day
		is.Equal(path(r, "PersonalInfo", "Status"), "I")
		is.Equal(path(r, "PersonalInfo", "Address", "MobileNo"), 9876543210.0)
		is.Equal(path(r, "ScheduleBP", "PersumptiveInc44ADA", "GrsReceipt"), 3645251.0)
		is.Equal(path(r, "ScheduleBP", "PersumptiveInc44ADA", "GrsTrnOverBank44ADA"), 3645251.0)
		is.Equal(path(r, "ScheduleBP", "PersumptiveInc44ADA", "TotPersumptiveInc44ADA"), 1822625.0)
		is.Equal(path(r, "TaxComputation", "NetTaxLiability"), 171106.0)
		is.Equal(path(notes, "indicative"), true)
		is.Equal(path(notes, "assessmentYear"), "2026-27")
		is.Equal(path(notes, "source"), "reconciled payouts only")
		for _, key := range []string{"FilingStatus", "TaxPaid", "Refund", "Verification"} {
			is.Equal(r[key], nil) // left for the filer
		}
	})

	t.Run("RebateLeavesNoTax", func(t *testing.T) {
		is := is.New(t)
		in := testITR4Input()
		in.TaxOnIncome, in.Rebate87A, in.Cess, in.TaxDue = 3226254, 3226254, 0, 0
		r, _ := decodeITR4(t, in)
		is.Equal(path(r, "TaxComputation", "TotalTaxPayable"), 32263.0)
		is.Equal(path(r, "TaxComputation", "Rebate87A"), 32263.0)
		is.Equal(path(r, "TaxComputation", "TaxPayableOnRebate"), 0.0)
		is.Equal(path(r, "TaxComputation", "GrossTaxLiability"), 0.0)
	})

	t.Run("TotalsSumRoundedLines", func(t *testing.T) {
		is := is.New(t)
		in := testITR4Input()
		in.TaxOnIncome, in.Cess = 1000050, 40002 // ₹10,000.50 → 10,001; ₹400.02 → 400
		r, _ := decodeITR4(t, in)
		is.Equal(path(r, "TaxComputation", "TotalTaxPayable"), 10001.0)
		is.Equal(path(r, "TaxComputation", "EducationCess"), 400.0)
		is.Equal(path(r, "TaxComputation", "GrossTaxLiability"), 10401.0)
	})

	t.Run("AssessmentYearForms", func(t *testing.T) {
		for _, ay := range []string{"2026-27", "2026", ""} {
			is := is.New(t)
			in := testITR4Input()
			in.AssessmentYear = ay
			r, _ := decodeITR4(t, in)
			is.Equal(path(r, "Form_ITR4", "AssessmentYear"), "2026")
		}
	})

	t.Run("MissingProfileDetailsAreLeftForFiler", func(t *testing.T) {
		is := is.New(t)
		in := testITR4Input()
		in.PAN, in.Email, in.Phone = "", "", ""
		r, notes := decodeITR4(t, in)
		is.Equal(path(r, "PersonalInfo", "PAN"), nil)
		is.Equal(path(r, "PersonalInfo", "Address", "EmailAddress"), nil)
		is.Equal(path(r, "PersonalInfo", "Address", "MobileNo"), nil)
		parts := ""
		for _, g := range notes["leftForFiler"].([]any) {
			parts += g.(map[string]any)["part"].(string) + "\n"
		}
		is.True(strings.Contains(parts, "ITR.ITR4.PersonalInfo.PAN\n"))
		is.True(strings.Contains(parts, "ITR.ITR4.PersonalInfo.Address.EmailAddress\n"))
		is.True(strings.Contains(parts, "MobileNo"))
	})

	t.Run("WarnsAboveITR4Limits", func(t *testing.T) {
		is := is.New(t)
		in := testITR4Input()
		in.GrossReceipts = 80_00_000_00
		in.TaxableIncome = 55_00_000_00
		in.Surcharge = 1_00_000_00
		_, notes := decodeITR4(t, in)
		is.Equal(len(notes["warnings"].([]any)), 3)
	})

	t.Run("NoWarnings", func(t *testing.T) {
		is := is.New(t)
		_, notes := decodeITR4(t, testITR4Input())
		is.Equal(len(notes["warnings"].([]any)), 0) // an empty list, not null
	})
}

func TestBuildITR4Errors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*ITR4Input)
	}{
		{"ErrFYFormat", func(in *ITR4Input) { in.FY = "2025" }},
		{"ErrFYNotConsecutive", func(in *ITR4Input) { in.FY = "2025-27" }},
		{"ErrAYMismatch", func(in *ITR4Input) { in.AssessmentYear = "2025-26" }},
		{"ErrAYFormat", func(in *ITR4Input) { in.AssessmentYear = "AY26" }},
		{"ErrGeneratedAtZero", func(in *ITR4Input) { in.GeneratedAt = time.Time{} }},
		{"ErrNegativeAmount", func(in *ITR4Input) { in.TaxDue = -1 }},
		{"ErrNegativeCount", func(in *ITR4Input) { in.TransactionCount = -1 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			in := testITR4Input()
			tc.change(&in)
			out, err := BuildITR4(in)
			is.True(errors.Is(err, ErrITR4Input))
			is.Equal(out, nil)
		})
	}
}

func TestIndianMobile(t *testing.T) {
	for _, tc := range []struct {
		name  string
		phone string
		want  int64
		ok    bool
	}{
		{"Plain", "9876543210", 9876543210, true},
		{"CountryCode", "+91 98765 43210", 9876543210, true},
		{"CountryCodeNoPlus", "919876543210", 9876543210, true},
		{"TrunkZero", "098765-43210", 9876543210, true},
		{"Empty", "", 0, false},
		{"Landline", "0802345678", 0, false},
		{"Foreign", "+1 415 555 0100", 0, false},
		{"Letters", "98765x3210", 0, false},
		{"TooShort", "98765", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			got, ok := indianMobile(tc.phone)
			is.Equal(ok, tc.ok)
			is.Equal(got, tc.want)
		})
	}
}
