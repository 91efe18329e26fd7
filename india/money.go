package india

// Amounts are int64 paise. These constants keep the tax tables readable in
// the Indian grouping the sources use (₹12,00,000 is 12*lakh).
const (
	paisePerRupee int64 = 100
	lakh                = 1_00_000 * paisePerRupee
	crore               = 1_00_00_000 * paisePerRupee
)

// maxGrossReceipts bounds the input of ComputeLiability so that every
// intermediate product (amount × percent) stays far inside int64: ₹10^13,
// ten times the largest single amount accepted (10^12 major units).
const maxGrossReceipts int64 = 10_000_000_000_000 * paisePerRupee

// percentHalfUp returns pct per cent of amount (paise, ≥ 0), rounded half-up
// to the paisa. Every rate in the tax tables is a whole percentage.
func percentHalfUp(amount, pct int64) int64 {
	return (amount*pct + 50) / 100
}

// rupeesHalfUp rounds paise (≥ 0) half-up to whole rupees, as the return's
// whole-rupee lines are stated.
func rupeesHalfUp(amount int64) int64 {
	return (amount + paisePerRupee/2) / paisePerRupee * paisePerRupee
}

// percentToRupee is pct per cent of amount (paise, ≥ 0) rounded half-up to
// whole rupees: each tax line (surcharge, cess) is a whole-rupee figure.
func percentToRupee(amount, pct int64) int64 {
	return (amount*pct + 50*paisePerRupee) / (100 * paisePerRupee) * paisePerRupee
}

// ceilRupees rounds paise (≥ 0) up to whole rupees.
func ceilRupees(amount int64) int64 {
	return (amount + paisePerRupee - 1) / paisePerRupee * paisePerRupee
}

// roundToTenRupees applies the rounding of s.288A (total income) and s.288B
// (amount payable) of the Income-tax Act, 1961, which use the same words: any
// part of a rupee consisting of paise is ignored, then the amount goes to the
// nearest multiple of ten rupees, a last figure of five or more rounding up.
// Sources: scbc.co/detail/2122.aspx (text of s.288A);
// taxmanagementindia.com/visitor/detail_act.asp?ID=3492 (text of s.288B).
// The Income-tax Act, 2025 keeps the rule in one section, s.516
// (aubsp.com/income-tax-act-2025-section-516).
// amount must be ≥ 0.
func roundToTenRupees(amount int64) int64 {
	rupees := amount / paisePerRupee
	if last := rupees % 10; last >= 5 {
		rupees += 10 - last
	} else {
		rupees -= last
	}
	return rupees * paisePerRupee
}

// RoundPayable is an amount payable or a refund due (paise, ≥ 0) as s.288B
// of the 1961 Act and s.516 of the 2025 Act round it: to the nearest ₹10
// (roundToTenRupees), so ₹9,984 is payable as ₹9,980 and a refund of
// ₹4,748 is ₹4,750.
func RoundPayable(amount int64) int64 { return roundToTenRupees(amount) }
