package documents

import (
	"testing"
	"time"

	"github.com/matryer/is"
)

// TestFIRASettlementRows: a live payout's advice names the transaction
// (its hash is the settlement reference), the Stellar ledger that applied
// it and the fee the network charged; a sandbox one has no such rows.
func TestFIRASettlementRows(t *testing.T) {
	settled := time.Date(2027, 3, 31, 18, 29, 50, 0, time.UTC)
	hash := "9d3b7e2c41f0a8b6d5c4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2"
	for _, tc := range []struct {
		name string
		f    FIRA
		want map[string]string
	}{
		{"Live", FIRA{SettledAt: settled, SettlementRef: hash, Ledger: 51234567, NetworkFee: "0.0000100 XLM", PaymentID: "pay_1"},
			map[string]string{"Settlement reference": hash, "Stellar ledger": "51234567", "Network fee": "0.0000100 XLM"}},
		{"Sandbox", FIRA{SettledAt: settled, SettlementRef: "stl_7f3a9c21e4b8", PaymentID: "pay_1"},
			map[string]string{"Settlement reference": "stl_7f3a9c21e4b8", "Stellar ledger": "", "Network fee": ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			got := map[string]string{}
			for _, r := range firaSettlement(tc.f) {
				got[r.label] = r.value
			}
			for label, want := range tc.want {
				is.Equal(got[label], want) // label
			}
		})
	}
}
