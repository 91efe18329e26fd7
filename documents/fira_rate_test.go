package documents

import (
	"testing"
	"time"

	"github.com/matryer/is"
)

func TestFIRARateAsOf(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    FIRA
		want string
	}{
		{"Sandbox", FIRA{SettlementRate: "83.25", ForeignCurrency: "USD"}, "₹83.25 per USD"},
		{"LiveRateWithAsOf", FIRA{SettlementRate: "83.25", ForeignCurrency: "USD",
			RateAsOf: time.Date(2026, 11, 25, 4, 30, 0, 0, time.FixedZone("IST", 5*3600+1800))}, "₹83.25 per USD, as of 2026-11-24 23:00 UTC"},
		{"NoRate", FIRA{}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(firaRate(tc.f), tc.want)
		})
	}
}
