package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// TestPayoutValueCap: one payout may be worth at most ₹1,00,000 crore at the
// indicative rate (KWD at 270.50 INR), so no INR figure of it reaches 2^53
// paise; the KWD 999,999,999,999.999 payout that used to be accepted, and
// whose FIRA amountInr no double could hold, is refused naming amount.
func TestPayoutValueCap(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	for _, c := range []struct {
		name, path, amount, currency string
		status                       int
		field                        string
	}{
		{"AtTheCap", "/api/v1/payments/initiate", "3696857670.979", "KWD", http.StatusCreated, ""}, // ₹999,999,999,999.82
		{"JustAbove", "/api/v1/payments/initiate", "3696857671.000", "KWD", http.StatusBadRequest, "amount"},
		{"FarAbove", "/api/v1/payments/initiate", "999999999999.999", "KWD", http.StatusBadRequest, "amount"},
		{"QuickStart", "/v1/payments", "999999999999.999", "KWD", http.StatusBadRequest, "amount"},
		{"NoRateToBoundIt", "/api/v1/payments/initiate", "1500", "CLP", http.StatusBadRequest, "currency"},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			body := map[string]any{"amount": c.amount, "currency": c.currency, "destinationAddress": testAddress}
			if strings.HasPrefix(c.path, "/v1/") {
				body = map[string]any{"amount": c.amount, "currency": c.currency, "recipient": testAddress}
				e.fundedVault(c.currency, "1.000")
			}
			r := e.req("POST", c.path, body)
			is.Equal(r.Status, c.status)
			if c.field != "" {
				is.Equal(r.errCode(t), "ERR_VALIDATION")
				is.True(r.field(t, c.field) != "")
			}
		})
	}
}
