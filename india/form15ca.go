package india

// Form15CAPartALimit is the largest sum Part A of Form 15CA takes: rule
// 37BB(1)(i) puts a payment in Part A when "the amount of payment or the
// aggregate of such payments, as the case may be, made during the
// financial year does not exceed five lakh rupees", so exactly ₹5,00,000
// is Part A and anything above it Part C, with a chartered accountant's
// certificate in Form 15CB (rule 37BB(1)(ii)(b)). Paise. Source: Income-tax
// Rules, 1962, r.37BB as substituted by Notification 93/2015 (text on
// taxtmi.com, acts id 10424).
const Form15CAPartALimit = 5 * lakh

// Form15CA is the part of Form 15CA a chargeable remittance to a
// non-resident is filed in, judged on the financial year's aggregate.
// Amounts are paise.
type Form15CA struct {
	// Aggregate is the remittance with the year's earlier ones.
	Aggregate  int64
	Part       string // "A" or "C"
	RequiresCA bool   // Part C: Form 15CB from a chartered accountant
}

// Form15CAOf judges a remittance of payment paise made after earlier paise
// of such payments in the same financial year: Part A while the aggregate
// does not exceed ₹5 lakh, Part C once it does, however small the payment
// itself. Parts B (an order under s.197 or s.195(2)/(3)) and D (not
// chargeable) depend on facts payoutd does not hold.
func Form15CAOf(payment, earlier int64) Form15CA {
	f := Form15CA{Aggregate: payment + earlier, Part: "A"}
	if f.Aggregate > Form15CAPartALimit {
		f.Part, f.RequiresCA = "C", true
	}
	return f
}
