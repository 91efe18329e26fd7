package taxes

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/payoutd/payoutd/documents"
	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

// TestITR4LinesAddUp builds the ITR-4 export over a grid of receipts,
// challans (none, part, all, over; on time, late, self-assessment) and
// payment days, and checks that every line is consistent: the tax plus
// interest less the taxes paid is the balance payable (or the refund), to
// the rupee, and the file agrees with the liability's figures.
func TestITR4LinesAddUp(t *testing.T) {
	fy := india.FY{StartYear: 2025}
	adv := func(on string, rupees int64) store.TaxPayment {
		return store.TaxPayment{Kind: india.PaymentAdvance, PaidOn: on, Amount: rupees * 100, BSRCode: "0510002", ChallanSerial: "00001"}
	}
	sat := func(on string, rupees int64) store.TaxPayment {
		return store.TaxPayment{Kind: india.PaymentSelfAssessment, PaidOn: on, Amount: rupees * 100, BSRCode: "0510002", ChallanSerial: "00002"}
	}
	receipts := []int64{9_99_000_00, 12_50_000_00, 24_10_000_00, 25_00_000_00, 46_00_000_00, 60_00_000_00, 74_90_000_00}
	challans := map[string]func(tax int64) []store.TaxPayment{
		"none": func(int64) []store.TaxPayment { return nil },
		"allOnTime": func(tax int64) []store.TaxPayment {
			if tax == 0 {
				return nil
			}
			return []store.TaxPayment{adv("2026-03-10", tax/100)}
		},
		"partLate": func(tax int64) []store.TaxPayment {
			return []store.TaxPayment{adv("2025-12-15", 30_000), adv("2026-03-20", 1_001)}
		},
		"selfJuly": func(tax int64) []store.TaxPayment { return []store.TaxPayment{sat("2026-07-15", tax/100/2+7)} },
		"over":     func(tax int64) []store.TaxPayment { return []store.TaxPayment{adv("2026-03-01", tax/100+12_345)} },
	}
	payOns := []string{"2026-03-31", "2026-07-31", "2026-09-30", "2027-02-01"}
	checked := 0
	for _, gross := range receipts {
		l, err := india.ComputeLiability(fy, gross)
		if err != nil {
			t.Fatal(err)
		}
		for name, pay := range challans {
			for _, payOn := range payOns {
				t.Run(fmt.Sprintf("%d/%s/%s", gross/100, name, payOn), func(t *testing.T) {
					in := Year{FY: fy, Act: india.ActOf(fy), Liability: l, PayOn: payOn, Challans: pay(l.NetTax)}
					paid := make([]india.TaxPayment, 0, len(in.Challans))
					for _, c := range in.Challans {
						paid = append(paid, india.TaxPayment{Kind: c.Kind, PaidOn: c.PaidOn, Amount: c.Amount})
					}
					pos, err := india.ComputePosition(l, paid, payOn)
					if err != nil {
						t.Fatal(err)
					}
					in.Interest, in.Paid = pos.Interest, pos.Paid
					input := itr4Input(in, store.Profile{Name: "Asha Rao", PAN: "ABCPR1234K"})
					input.GeneratedAt = time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)
					raw, err := documents.BuildITR4(input)
					if err != nil {
						t.Fatal(err)
					}
					checkLines(t, raw, pos)
					checked++
				})
			}
		}
	}
	if checked != len(receipts)*len(challans)*len(payOns) {
		t.Fatalf("checked %d exports", checked)
	}
}

// checkLines reads the file as a filing tool would and checks its sums.
func checkLines(t *testing.T, raw []byte, pos india.Position) {
	t.Helper()
	var f struct {
		ITR struct {
			ITR4 struct {
				TaxComputation struct {
					TotalTaxPayable, Rebate87A, TaxPayableOnRebate, EducationCess, GrossTaxLiability, NetTaxLiability int64
					IntrstPay                                                                                         struct {
						IntrstPayUs234A, IntrstPayUs234B, IntrstPayUs234C, LateFilingFee234F int64
					}
					TotTaxPlusIntrstPay int64
				}
				TaxPaid struct {
					TaxesPaid struct {
						AdvanceTax, TDS, TCS, SelfAssessmentTax, TotalTaxesPaid int64
					}
					BalTaxPayable int64
				}
				Refund     *struct{ RefundDue int64 }
				ScheduleIT *struct {
					TotalTaxPayments int64
				}
			}
		}
	}
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	r := f.ITR.ITR4
	tc, tp := r.TaxComputation, r.TaxPaid
	ip := tc.IntrstPay
	want := func(name string, got, want int64) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %d, want %d\n%s", name, got, want, raw)
		}
	}
	want("TaxPayableOnRebate", tc.TaxPayableOnRebate, tc.TotalTaxPayable-tc.Rebate87A)
	want("GrossTaxLiability", tc.GrossTaxLiability, tc.TaxPayableOnRebate+tc.EducationCess)
	want("NetTaxLiability", tc.NetTaxLiability, pos.Liability.NetTax/100)
	want("TotTaxPlusIntrstPay", tc.TotTaxPlusIntrstPay, tc.NetTaxLiability+ip.IntrstPayUs234A+ip.IntrstPayUs234B+ip.IntrstPayUs234C+ip.LateFilingFee234F)
	want("IntrstPayUs234B", ip.IntrstPayUs234B, pos.Interest.Default/100)
	want("IntrstPayUs234C", ip.IntrstPayUs234C, pos.Interest.Deferment/100)
	want("TotalTaxesPaid", tp.TaxesPaid.TotalTaxesPaid, tp.TaxesPaid.AdvanceTax+tp.TaxesPaid.TDS+tp.TaxesPaid.TCS+tp.TaxesPaid.SelfAssessmentTax)
	refund := int64(0)
	if r.Refund != nil {
		refund = r.Refund.RefundDue
	}
	owed := tc.TotTaxPlusIntrstPay - tp.TaxesPaid.TotalTaxesPaid
	want("BalTaxPayable", tp.BalTaxPayable, india.RoundPayable(max(owed, 0)*100)/100)
	want("RefundDue", refund, india.RoundPayable(max(-owed, 0)*100)/100)
	if tp.BalTaxPayable > 0 && refund > 0 {
		t.Errorf("both a balance and a refund: %s", raw)
	}
	want("BalTaxPayable (the liability's balanceDue)", tp.BalTaxPayable*100, pos.Paid.BalanceDue)
	want("RefundDue (the liability's refundDue)", refund*100, pos.Paid.RefundDue)
	if r.ScheduleIT != nil {
		want("TotalTaxPayments", r.ScheduleIT.TotalTaxPayments, tp.TaxesPaid.TotalTaxesPaid)
	}
}
