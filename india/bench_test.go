package india_test

import (
	"testing"

	"github.com/payoutd/payoutd/india"
)

// The tax refresh job recomputes the liability on every reconciliation and
// PATCH /profile validates GSTINs; both should stay allocation-light.

func BenchmarkComputeLiability(b *testing.B) {
	fy := india.FY{StartYear: 2025}
	for _, bc := range []struct {
		name     string
		receipts int64
	}{
		{"Rebate", rs(24_60_000)},
		{"SurchargeRelief", rs(2_00_20_000)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := india.ComputeLiability(fy, bc.receipts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkValidateGSTIN(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if err := india.ValidateGSTIN("27AAPFU0939F1ZV"); err != nil {
			b.Fatal(err)
		}
	}
}
