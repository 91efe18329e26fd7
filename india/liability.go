package india

import (
	"errors"
	"fmt"
	"time"
)

// ErrNegativeReceipts, ErrReceiptsTooLarge and ErrCashAboveGross reject
// inputs Compute cannot give a meaningful figure for.
var (
	ErrNegativeReceipts = errors.New("gross receipts must not be negative")
	ErrReceiptsTooLarge = errors.New("gross receipts too large")
	ErrCashAboveGross   = errors.New("cash receipts must be between 0 and gross receipts")
)

// LiabilityInput is what the estimate depends on. Amounts are paise.
type LiabilityInput struct {
	FY            FY
	GrossReceipts int64
	CashReceipts  int64 // part of GrossReceipts received in cash (or non-account-payee cheques)
	// Today decides which advance-tax instalments are already past; the zero
	// time marks none past.
	Today time.Time
}

// Liability is the indicative income-tax of a resident individual
// professional in the new regime. Amounts are paise; every tax line is whole
// rupees, as the return states it.
type Liability struct {
	FY FY
	// Provisional: no Finance Act figures for FY are in the tables yet, so
	// the slabs, rebate and surcharge of TableFY were used.
	Provisional bool
	TableFY     FY

	GrossReceipts int64 // as given
	CashReceipts  int64
	// Presumptive: s.44ADA is available (receipts within its limit), so
	// PresumptiveIncome is the deemed income of the law. When it is false
	// income must come from books; PresumptiveIncome is 0 and TaxableIncome
	// is only an illustration at the same 50%.
	Presumptive bool
	// AuditRequired: a tax audit (s.44AB) applies, i.e. 44ADA is not
	// available and gross receipts exceed ₹50 lakh.
	AuditRequired bool
	ReturnForm    string // "ITR-4" under s.44ADA, "ITR-3" from books
	// GrossReceiptsRupees is GrossReceipts rounded half-up to whole rupees,
	// the figure a return reports; PresumptiveIncome is 50% of it rounded up
	// to the rupee, so it is never below half of the reported receipts.
	GrossReceiptsRupees int64
	PresumptiveIncome   int64
	TaxableIncome       int64 // the (presumptive or illustrative) income rounded to ₹10
	TaxOnIncome         int64 // slab tax, before rebate
	Rebate87A           int64
	Surcharge           int64 // after marginal relief
	Cess                int64 // 4% of tax after rebate plus surcharge
	NetTax              int64 // TaxOnIncome − Rebate87A + Surcharge + Cess
	// EstimatedTaxDue is NetTax rounded to ₹10 (s.288B / s.516), so it may
	// differ from NetTax by up to ₹5.
	EstimatedTaxDue int64
	// AdvanceTaxDue: EstimatedTaxDue is ₹10,000 or more, so advance tax is
	// payable on AdvanceTaxSchedule; otherwise the schedule is empty and the
	// tax is self-assessment tax paid with the return.
	AdvanceTaxDue      bool
	AdvanceTaxSchedule []Instalment
}

// ComputeLiability is Compute for gross receipts all received through banks,
// with no instalment marked past.
func ComputeLiability(fy FY, grossReceipts int64) (Liability, error) {
	return Compute(LiabilityInput{FY: fy, GrossReceipts: grossReceipts})
}

// Compute estimates the tax on the year's receipts.
//
// It is indicative: the profession's receipts are the only income, nothing is
// deducted (no Chapter VI-A, no other heads, no losses), no TDS or advance tax
// already paid is credited, and the person is a resident individual (a firm
// is taxed at a flat rate and gets no s.87A rebate). Steps, in integer paise:
//
//  1. s.44ADA is available up to ₹75 lakh of receipts when cash is at most
//     5% of them, else up to ₹50 lakh; beyond it books, audit and ITR-3;
//  2. income = 50% of the receipts in whole rupees, rounded up (s.44ADA
//     deems "50% … or a higher sum"); above the limit the same figure is an
//     illustration only;
//  3. taxable income = income rounded to ₹10 (s.288A / s.516);
//  4. slab tax; s.87A rebate with marginal relief; surcharge with marginal
//     relief and the 25% cap; cess 4% of tax plus surcharge; each line whole
//     rupees;
//  5. tax due = their total rounded to ₹10 (s.288B / s.516); advance tax only
//     from ₹10,000 (s.208 / s.404), all by 15 March under s.44ADA, else in
//     four instalments.
func Compute(in LiabilityInput) (Liability, error) {
	r, provisional, err := rulesOrLatest(in.FY)
	if err != nil {
		return Liability{}, err
	}
	gross := in.GrossReceipts
	if gross < 0 {
		return Liability{}, ErrNegativeReceipts
	}
	if gross > maxGrossReceipts {
		return Liability{}, fmt.Errorf("%w: above ₹%d", ErrReceiptsTooLarge, maxGrossReceipts/paisePerRupee)
	}
	if in.CashReceipts < 0 || in.CashReceipts > gross {
		return Liability{}, ErrCashAboveGross
	}

	presumptive := r.presumptiveAvailable(gross, in.CashReceipts)
	grossRupees := rupeesHalfUp(gross)
	income := ceilRupees(grossRupees * r.PresumptivePercent / 100)
	taxable := roundToTenRupees(income) // s.288A

	tax := r.slabTax(taxable)
	rebate := r.rebate87A(taxable, tax)
	afterRebate := tax - rebate
	surcharge := r.surcharge(taxable, afterRebate)
	cess := percentToRupee(afterRebate+surcharge, r.CessPercent)
	net := afterRebate + surcharge + cess
	due := roundToTenRupees(net) // s.288B

	l := Liability{
		FY: in.FY, Provisional: provisional, TableFY: r.FY,
		GrossReceipts: gross, CashReceipts: in.CashReceipts,
		Presumptive: presumptive, AuditRequired: !presumptive && gross > r.PresumptiveReceiptsLimit,
		ReturnForm: "ITR-4", GrossReceiptsRupees: grossRupees, TaxableIncome: taxable,
		TaxOnIncome: tax, Rebate87A: rebate, Surcharge: surcharge, Cess: cess, NetTax: net,
		EstimatedTaxDue: due, AdvanceTaxDue: due >= advanceTaxMinimum,
		AdvanceTaxSchedule: advanceTaxSchedule(in.FY, due, presumptive, in.Today),
	}
	if presumptive {
		l.PresumptiveIncome = income
	} else {
		l.ReturnForm = "ITR-3"
	}
	return l, nil
}

// presumptiveAvailable applies the s.44ADA receipts limits: the higher one
// when cash receipts are at most PresumptiveCashMaxPercent of gross
// receipts, the basic one otherwise.
func (r *Rules) presumptiveAvailable(gross, cash int64) bool {
	limit := r.PresumptiveReceiptsLimit
	if cash*100 <= gross*r.PresumptiveCashMaxPercent {
		limit = r.PresumptiveReceiptsLimitLowCash
	}
	return gross <= limit
}
