package india

// Position is a year's liability set against its recorded challans, with
// the interest owed if the rest is paid on Interest.PayOn. Amounts are paise.
// Paid.BalanceDue is NetTax + Interest.Total − Paid.Total (never negative)
// and Paid.RefundDue the excess, so the lines of the return add up to the
// rupee: tax + interest − taxes paid = balance payable (or refund).
type Position struct {
	Liability Liability
	Interest  Interest
	Paid      TaxPaid
}

// ComputePosition sets payments against l, supposing what is still unpaid
// is paid on payOn (YYYY-MM-DD, an IST date).
func ComputePosition(l Liability, payments []TaxPayment, payOn string) (Position, error) {
	in, err := ComputeInterest(l.FY, l.NetTax, l.Presumptive, l.AdvanceTaxSchedule, payments, payOn)
	if err != nil {
		return Position{}, err
	}
	tp, err := ApplyTaxPaid(l.NetTax+in.Total, l.AdvanceTaxSchedule, payments)
	if err != nil {
		return Position{}, err
	}
	return Position{Liability: l, Interest: in, Paid: tp}, nil
}
