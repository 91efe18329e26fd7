package documents

// INR is an amount in paise that marshals to JSON as a number of rupees with
// exactly two decimals (123450 → 1234.50). The GST exports'
// "numbers in INR" want decimal rupees; writing them from integer paise keeps
// the value exact where a float64 would print 1234.5 or drift.
type INR int64

// MarshalJSON writes the rupee value as a JSON number, e.g. 1234.50 or -0.05.
func (v INR) MarshalJSON() ([]byte, error) {
	return []byte(v.String()), nil
}

// String is the same decimal text without grouping, as JSON needs.
func (v INR) String() string {
	return formatMinor(int64(v), 2, func(s string) string { return s })
}

// rupeesHalfUp converts paise to whole rupees, rounding half away from zero
// (₹10.50 → 11, ₹10.49 → 10), the "round half-up to the rupee" the ITR
// export documents. Amounts here are never negative in practice; the
// symmetric rule just keeps a refund or correction from rounding oddly.
func rupeesHalfUp(paise int64) int64 {
	r, p := paise/100, paise%100
	switch {
	case p >= 50:
		r++
	case p <= -50:
		r--
	}
	return r
}
