package india

import (
	"testing"

	"github.com/matryer/is"
)

func TestRoundToTenRupees(t *testing.T) {
	is := is.New(t)
	// Examples from the s.288A explanations quoted in money.go's sources
	// (greythr/taxtmi: 2,52,844.99 → 2,52,840; 2,52,845 and 2,52,846.01 → 2,52,850;
	// taxpage.in: 5,99,995 → 6,00,000 and 5,99,994.50 → 5,99,990).
	for in, want := range map[int64]int64{
		2_52_844_99: 2_52_840_00,
		2_52_845_00: 2_52_850_00,
		2_52_846_01: 2_52_850_00,
		5_99_995_00: 6_00_000_00,
		5_99_994_50: 5_99_990_00,
		0:           0,
		4_99:        0,
		5_00:        10_00,
	} {
		is.Equal(roundToTenRupees(in), want) // in
	}
}

func TestPercentHalfUp(t *testing.T) {
	is := is.New(t)
	is.Equal(percentHalfUp(1, 50), int64(1))    // 0.5 paisa rounds up
	is.Equal(percentHalfUp(3, 50), int64(2))    // 1.5 → 2
	is.Equal(percentHalfUp(1249, 4), int64(50)) // 49.96 → 50
	is.Equal(percentHalfUp(1237, 4), int64(49)) // 49.48 → 49
	is.Equal(percentHalfUp(maxGrossReceipts, 100), maxGrossReceipts)
}
