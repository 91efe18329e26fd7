package documents

import (
	"testing"
	"time"

	"github.com/matryer/is"
)

func TestFIRARateAsOf(t *testing.T) {
	settled := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
	asOf := time.Date(2026, 11, 25, 4, 30, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		f    FIRA
		want string
	}{
		{"SandboxAsOfSettlement", FIRA{SettlementRate: "83.25", ForeignCurrency: "USD", SettledAt: settled},
			"₹83.25 per USD, as of " + firaTime(settled)},
		{"LiveRateAsOfItsOwnTime", FIRA{SettlementRate: "83.25", ForeignCurrency: "USD", SettledAt: settled, RateAsOf: asOf},
			"₹83.25 per USD, as of " + firaTime(asOf)},
		{"NoRate", FIRA{SettledAt: settled}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(firaRateAsOf(tc.f), tc.want)
			is.True(settled != asOf)
		})
	}
}
