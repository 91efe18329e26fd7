package india

import "testing"

// TestForm15CAOf: rule 37BB judges the part on the financial year's
// aggregate, not the payment alone: an aggregate of exactly ₹5 lakh is
// Part A, one paisa more is Part C, even when the payment itself is small.
func TestForm15CAOf(t *testing.T) {
	for _, c := range []struct {
		name             string
		payment, earlier int64
		aggregate        int64
		part             string
		ca               bool
	}{
		{"AloneSmall", 1, 0, 1, "A", false},
		{"AloneAtTheLimit", 5_00_000_00, 0, 5_00_000_00, "A", false},
		{"AloneOnePaisaOver", 5_00_000_01, 0, 5_00_000_01, "C", true},
		{"AggregateAtTheLimit", 1_00_000_00, 4_00_000_00, 5_00_000_00, "A", false},
		{"AggregateOnePaisaOver", 1_00_000_01, 4_00_000_00, 5_00_000_01, "C", true},
		{"SmallAfterTheLimit", 1, 5_00_000_00, 5_00_000_01, "C", true},
		{"SmallReachingTheLimit", 1, 4_99_999_99, 5_00_000_00, "A", false},
		{"LargeYear", 10_000_00, 50_00_000_00, 50_10_000_00, "C", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Form15CAOf(c.payment, c.earlier)
			want := Form15CA{Aggregate: c.aggregate, Part: c.part, RequiresCA: c.ca}
			if got != want {
				t.Errorf("Form15CAOf(%d, %d) = %+v; want %+v", c.payment, c.earlier, got, want)
			}
		})
	}
}
