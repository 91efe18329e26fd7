package documents

import (
	"errors"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// testITR4TaxesPaid: net tax ₹1,71,107 (testITR4Input) against two
// advance challans and one self-assessment challan, ₹1,71,107 in all:
// nothing remains due.
func testITR4TaxesPaid() *ITR4TaxesPaid {
	return &ITR4TaxesPaid{
		Advance: 15000000, SelfAssessment: 2110700,
		Challans: []ITR4Challan{
			{BSRCode: "0510002", PaidOn: "2025-12-12", Serial: "00412", Amount: 5000000},
			{BSRCode: "6390340", PaidOn: "2026-03-14", Serial: "20662", Amount: 10000000},
			{BSRCode: "0510002", PaidOn: "2026-07-20", Serial: "31007", Amount: 2110700},
		},
	}
}

func TestBuildITR4TaxPaid(t *testing.T) {
	in := testITR4Input()
	in.TaxesPaid = testITR4TaxesPaid()

	t.Run("Golden", func(t *testing.T) {
		is := is.New(t)
		got, err := BuildITR4(in)
		is.NoErr(err)
		golden(t, "itr4_taxpaid.golden.json", got)
	})

	t.Run("Figures", func(t *testing.T) {
		is := is.New(t)
		r, notes := decodeITR4(t, in)
		is.Equal(path(r, "TaxPaid", "TaxesPaid", "AdvanceTax"), float64(150000))
		is.Equal(path(r, "TaxPaid", "TaxesPaid", "SelfAssessmentTax"), float64(21107))
		is.Equal(path(r, "TaxPaid", "TaxesPaid", "TotalTaxesPaid"), float64(171107))
		is.Equal(path(r, "TaxPaid", "BalTaxPayable"), float64(0))
		rows := path(r, "ScheduleIT", "TaxPayment").([]any)
		is.Equal(len(rows), 3)
		is.Equal(rows[1], map[string]any{"BSRCode": "6390340", "DateDep": "2026-03-14", "SrlNoOfChaln": float64(20662), "Amt": float64(100000)})
		is.Equal(rows[0].(map[string]any)["SrlNoOfChaln"], float64(412)) // an integer in the schema: leading zeros go
		is.Equal(path(r, "ScheduleIT", "TotalTaxPayments"), float64(171107))
		is.Equal(path(notes, "exactFigures", "balanceDue"), 0.0)
		is.Equal(len(notes["warnings"].([]any)), 0)
		for _, g := range notes["leftForFiler"].([]any) {
			part := g.(map[string]any)["part"].(string)
			is.True(!strings.HasPrefix(part, "ITR.ITR4.TaxPaid, ScheduleIT")) // no longer left out
		}
	})

	t.Run("NotGivenLeftForFiler", func(t *testing.T) {
		is := is.New(t)
		r, notes := decodeITR4(t, testITR4Input())
		is.Equal(r["TaxPaid"], nil)
		is.Equal(r["ScheduleIT"], nil)
		is.Equal(path(notes, "exactFigures", "advanceTax"), nil)
	})

	t.Run("NoChallansNoSchedule", func(t *testing.T) {
		is := is.New(t)
		in := testITR4Input()
		in.TaxesPaid = &ITR4TaxesPaid{BalanceDue: 17110700}
		r, _ := decodeITR4(t, in)
		is.Equal(path(r, "TaxPaid", "TaxesPaid", "TotalTaxesPaid"), float64(0))
		is.Equal(path(r, "TaxPaid", "BalTaxPayable"), float64(171110)) // NetTaxLiability ₹1,71,107 (no interest given) to ₹10
		is.Equal(r["ScheduleIT"], nil)
	})

	t.Run("RefundDueForFiler", func(t *testing.T) {
		is := is.New(t)
		in := testITR4Input()
		in.TaxesPaid = &ITR4TaxesPaid{Advance: 20000000, RefundDue: 2889300,
			Challans: []ITR4Challan{{BSRCode: "0510002", PaidOn: "2026-03-01", Serial: "12345", Amount: 20000000}}}
		r, notes := decodeITR4(t, in)
		is.Equal(path(r, "TaxPaid", "BalTaxPayable"), float64(0))
		is.Equal(path(r, "Refund", "RefundDue"), float64(28890)) // ₹28,893 to the nearest ₹10
		is.Equal(path(notes, "exactFigures", "refundDue"), 28893.0)
		found := false
		for _, g := range notes["leftForFiler"].([]any) {
			found = found || g.(map[string]any)["part"] == "ITR.ITR4.Refund.BankAccountDtls"
		}
		is.True(found)
	})

	t.Run("PaiseChallansWarn", func(t *testing.T) {
		is := is.New(t)
		in := testITR4Input()
		// 100.50 + 100.50: each row rounds up to 101 (202), the sum 201.00 is 201.
		in.TaxesPaid = &ITR4TaxesPaid{Advance: 20100, BalanceDue: in.TaxDue - 20100, Challans: []ITR4Challan{
			{BSRCode: "0510002", PaidOn: "2026-03-01", Serial: "12345", Amount: 10050},
			{BSRCode: "0510002", PaidOn: "2026-03-02", Serial: "12346", Amount: 10050}}}
		r, notes := decodeITR4(t, in)
		is.Equal(path(r, "TaxPaid", "TaxesPaid", "AdvanceTax"), float64(201))
		is.Equal(path(r, "ScheduleIT", "TotalTaxPayments"), float64(202))
		is.Equal(len(notes["warnings"].([]any)), 1)
	})

	t.Run("ErrBadChallan", func(t *testing.T) {
		for _, c := range []ITR4Challan{
			{BSRCode: "051000", PaidOn: "2026-03-01", Serial: "12345", Amount: 1},
			{BSRCode: "0510002", PaidOn: "2026-03-01", Serial: "1234x", Amount: 1},
			{BSRCode: "0510002", PaidOn: "2026-03-01", Serial: "12345", Amount: 0},
		} {
			in := testITR4Input()
			in.TaxesPaid = &ITR4TaxesPaid{Challans: []ITR4Challan{c}}
			_, err := BuildITR4(in)
			is.New(t).True(errors.Is(err, ErrITR4Input))
		}
	})
}
