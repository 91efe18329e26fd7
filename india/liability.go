package india

import (
	"errors"
	"fmt"
)

// ErrNegativeReceipts and ErrReceiptsTooLarge reject inputs ComputeLiability
// cannot give a meaningful figure for.
var (
	ErrNegativeReceipts = errors.New("gross receipts must not be negative")
	ErrReceiptsTooLarge = errors.New("gross receipts too large")
)

// Liability is the indicative income-tax of a resident individual taxed
// under s.44ADA in the new regime. Amounts are paise.
type Liability struct {
	FY                FY
	GrossReceipts     int64 // as given
	PresumptiveIncome int64 // PresumptivePercent of GrossReceipts, half-up to the paisa
	TaxableIncome     int64 // PresumptiveIncome rounded per s.288A (whole ₹10)
	TaxOnIncome       int64 // slab tax, before rebate
	Rebate87A         int64
	Surcharge         int64 // after marginal relief, half-up to the paisa
	Cess              int64 // on tax after rebate plus surcharge, half-up to the paisa
	// EstimatedTaxDue is TaxOnIncome − Rebate87A + Surcharge + Cess rounded
	// per s.288B (whole ₹10), so it may differ from that sum by up to ₹5.
	EstimatedTaxDue    int64
	AdvanceTaxSchedule []Instalment
}

// ComputeLiability estimates the tax on grossReceipts (paise) for fy.
//
// It is indicative: the profession's receipts are the only income, nothing is
// deducted (no Chapter VI-A, no other heads, no losses), no TDS or advance tax
// already paid is credited, and the person is a resident individual (a firm
// is taxed at a flat rate and gets no s.87A rebate). The s.44ADA receipts
// limits are not enforced here; compare GrossReceipts with the Rules' limits
// to warn. Steps, all in integer paise:
//
//  1. presumptive income = 50% of gross receipts (s.44ADA), half-up;
//  2. taxable income = presumptive income rounded per s.288A;
//  3. slab tax; s.87A rebate with marginal relief (UNCONFIRMED as law, see
//     taxtables.go); surcharge with marginal relief and the 25% cap;
//     cess 4% of tax plus surcharge;
//  4. tax due rounded per s.288B; one advance-tax instalment for all of it.
func ComputeLiability(fy FY, grossReceipts int64) (Liability, error) {
	r, err := rulesFor(fy)
	if err != nil {
		return Liability{}, err
	}
	if grossReceipts < 0 {
		return Liability{}, ErrNegativeReceipts
	}
	if grossReceipts > maxGrossReceipts {
		return Liability{}, fmt.Errorf("%w: above ₹%d", ErrReceiptsTooLarge, maxGrossReceipts/paisePerRupee)
	}

	// Half-up, never down: s.44ADA deems "50% … or a higher sum", so the
	// rounding must not leave less than half of the receipts.
	presumptive := percentHalfUp(grossReceipts, r.PresumptivePercent)
	taxable := roundToTenRupees(presumptive) // s.288A

	tax := r.slabTax(taxable)
	rebate := r.rebate87A(taxable, tax)
	afterRebate := tax - rebate
	surcharge := r.surcharge(taxable, afterRebate)
	cess := percentHalfUp(afterRebate+surcharge, r.CessPercent)
	due := roundToTenRupees(afterRebate + surcharge + cess) // s.288B

	return Liability{
		FY:                 fy,
		GrossReceipts:      grossReceipts,
		PresumptiveIncome:  presumptive,
		TaxableIncome:      taxable,
		TaxOnIncome:        tax,
		Rebate87A:          rebate,
		Surcharge:          surcharge,
		Cess:               cess,
		EstimatedTaxDue:    due,
		AdvanceTaxSchedule: advanceTaxSchedule44ADA(fy, due),
	}, nil
}
