package documents

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/payoutd/payoutd/india"
)

// testITR4Input is FY 2025-26 under the new regime: receipts ₹36,45,250.75
// are ₹36,45,251 in the return; presumptive income ⌈18,22,625.5⌉ = 18,22,626;
// total income 18,22,630 (s.288A); slab tax 1,20,000 + 20%×2,22,630 =
// 1,64,526; no rebate above ₹12 lakh; cess 4% = 6,581.04 → 6,581; total
// 1,71,107, payable 1,71,110 (s.288B).
func testITR4Input() ITR4Input {
	return ITR4Input{
		FY:                "2025-26",
		AssessmentYear:    "2026-27",
		Name:              "Asha Raghunathan",
		PAN:               "ABCPR1234K",
		Email:             "asha@example.in",
		Phone:             "+91 98765 43210",
		GrossReceipts:     364525075,
		PresumptiveIncome: 182262600,
		TaxableIncome:     182263000,
		TaxOnIncome:       16452600,
		Rebate87A:         0,
		Surcharge:         0,
		Cess:              658100,
		TaxDue:            17111000,
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
	is.Equal(len(doc), 1) // "ITR" and nothing beside it
	n, err := BuildITR4Notes(in)
	is.NoErr(err)
	raw, err = json.Marshal(n)
	is.NoErr(err)
	is.NoErr(json.Unmarshal(raw, &notes))
	return doc["ITR"].(map[string]any)["ITR4"].(map[string]any), notes
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
		is.Equal(path(r, "ScheduleBP", "PersumptiveInc44ADA", "TotPersumptiveInc44ADA"), 1822626.0)
		is.Equal(path(r, "IncomeDeductions", "TotalIncome"), 1822630.0)
		is.Equal(path(r, "TaxComputation", "TotalTaxPayable"), 164526.0)
		is.Equal(path(r, "TaxComputation", "EducationCess"), 6581.0)
		is.Equal(path(r, "TaxComputation", "NetTaxLiability"), 171107.0)
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

	t.Run("ProvisionalYearIsWarned", func(t *testing.T) {
		is := is.New(t)
		in := testITR4Input()
		in.Provisional = "Provisional: slabs not enacted"
		_, notes := decodeITR4(t, in)
		is.Equal(notes["warnings"], []any{"Provisional: slabs not enacted"})
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
		// ₹36,45,251 in the return needs at least 18,22,626 (50% rounded up).
		{"ErrPresumptiveBelowHalf", func(in *ITR4Input) { in.PresumptiveIncome = 182262500 }},
		{"ErrSurcharge", func(in *ITR4Input) { in.Surcharge = 100 }},
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

// TestITR4PresumptiveNeverBelowHalf feeds the liability's figures for awkward
// paise amounts into the file: after the return's rounding, the presumptive
// income is never below 50% of GrsReceipt. Hand check of the first row:
// ₹36,45,250.75 → GrsReceipt 36,45,251, half 18,22,625.5, so 18,22,626.
func TestITR4PresumptiveNeverBelowHalf(t *testing.T) {
	for _, gross := range []int64{364525075, 364525049, 364525050, 1, 49, 50, 150, 250, 74_99_999_99, 75_00_000_00} {
		t.Run(strconv.FormatInt(gross, 10), func(t *testing.T) {
			is := is.New(t)
			l, err := india.ComputeLiability(india.FY{StartYear: 2025}, gross)
			is.NoErr(err)
			in := testITR4Input()
			in.GrossReceipts, in.PresumptiveIncome, in.TaxableIncome = l.GrossReceipts, l.PresumptiveIncome, l.TaxableIncome
			in.TaxOnIncome, in.Rebate87A, in.Cess, in.TaxDue = l.TaxOnIncome, l.Rebate87A, l.Cess, l.EstimatedTaxDue
			r, _ := decodeITR4(t, in)
			grs := path(r, "ScheduleBP", "PersumptiveInc44ADA", "GrsReceipt").(float64)
			tot := path(r, "ScheduleBP", "PersumptiveInc44ADA", "TotPersumptiveInc44ADA").(float64)
			is.True(2*tot >= grs)
			is.True(2*tot <= grs+1) // and no more than the rounding
			is.Equal(path(r, "TaxComputation", "NetTaxLiability"), float64(l.NetTax/100))
		})
	}
}
