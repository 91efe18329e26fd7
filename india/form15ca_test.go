package india

import "testing"

// TestForm15CAPart: a remittance not exceeding ₹5 lakh is Part A, so the
// boundary itself is Part A and one paisa more is Part C (rule 37BB).
func TestForm15CAPart(t *testing.T) {
	for _, c := range []struct {
		inr  int64
		part string
		ca   bool
	}{
		{1, "A", false},
		{4_99_999_99, "A", false},
		{5_00_000_00, "A", false},
		{5_00_000_01, "C", true},
		{50_00_000_00, "C", true},
	} {
		part, ca := Form15CAPart(c.inr)
		if part != c.part || ca != c.ca {
			t.Errorf("Form15CAPart(%d) = %s, %v; want %s, %v", c.inr, part, ca, c.part, c.ca)
		}
	}
}
