package india

// Form15CAPartALimit is the largest remittance Part A of Form 15CA takes:
// a sum (or the year's aggregate) not exceeding ₹5 lakh, so exactly
// ₹5,00,000 is Part A and anything above it Part C with a chartered
// accountant's certificate in Form 15CB (rule 37BB; facts §5). Paise.
const Form15CAPartALimit = 5 * lakh

// Form15CAPart is the part of Form 15CA a chargeable remittance of inr
// paise to a non-resident is filed in, and whether it needs Form 15CB.
// Parts B (an order under s.197 or s.195(2)/(3)) and D (not chargeable)
// depend on facts payoutd does not hold.
func Form15CAPart(inr int64) (part string, requiresCA bool) {
	if inr > Form15CAPartALimit {
		return "C", true
	}
	return "A", false
}
