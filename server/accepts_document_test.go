package server_test

import (
	"net/http"
	"testing"

	"github.com/matryer/is"
)

// TestAmountDecimalsPerCurrency: an amount may carry at most as many
// decimals as its currency has, zeros included, as the document's pattern
// for that currency says: KWD three, JPY none, USD two.
func TestAmountDecimalsPerCurrency(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver, o.limits = true, map[string]int{"initiate": 1000} })
	for _, c := range []struct {
		currency, amount string
		status           int
	}{
		{"KWD", `"1.234"`, http.StatusCreated},
		{"KWD", `"1.2345"`, http.StatusBadRequest},
		{"KWD", `"1.2340"`, http.StatusBadRequest},
		{"JPY", `"1500"`, http.StatusCreated},
		{"JPY", `"1500.0"`, http.StatusBadRequest},
		{"JPY", `1500.0`, http.StatusBadRequest},
		{"USD", `"10.50"`, http.StatusCreated},
		{"USD", `"10.500"`, http.StatusBadRequest},
		{"USD", `10.500`, http.StatusBadRequest},
	} {
		t.Run(c.currency+"_"+c.amount, func(t *testing.T) {
			is := is.New(t)
			r := e.req("POST", "/api/v1/payments/initiate", `{"amount":`+c.amount+`,"currency":"`+c.currency+`","destinationAddress":"`+testAddress+`"}`)
			is.Equal(r.Status, c.status)
			if c.status == http.StatusBadRequest {
				is.True(r.field(t, "amount") != "")
			}
		})
	}
}

// TestUnknownQueryParameters: a query parameter an operation does not take
// is 400 naming it (statuss=FAILED used to list every payment), and so is
// one given twice; the HTML pages and probes ignore query strings.
func TestUnknownQueryParameters(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	for _, c := range []struct {
		method, path string
		status       int
		field        string
	}{
		{"GET", "/api/v1/payments?statuss=FAILED", http.StatusBadRequest, "statuss"},
		{"GET", "/api/v1/payments?status=FAILED&status=COMPLETED", http.StatusBadRequest, "status"},
		{"GET", "/api/v1/payments?status=FAILED&limit=5", http.StatusOK, ""},
		{"GET", "/api/v1/profile?verbose=1", http.StatusBadRequest, "verbose"},
		{"GET", "/api/v1/events?type=payout.settled&since=1", http.StatusBadRequest, "since"},
		{"POST", "/api/v1/oauth/token?scope=all", http.StatusBadRequest, "scope"},
		{"GET", "/api/v1/openapi.json?v=2", http.StatusBadRequest, "v"},
		{"GET", "/healthz?probe=1", http.StatusOK, ""},
		{"GET", "/docs?utm_source=mail", http.StatusOK, ""},
	} {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			is := is.New(t)
			r := e.req(c.method, c.path, nil)
			is.Equal(r.Status, c.status)
			if c.field != "" {
				is.Equal(r.errCode(t), "ERR_VALIDATION")
				is.True(r.field(t, c.field) != "")
			}
		})
	}
}

// TestWrongMethodIs405: a path the API serves, asked with a method it does
// not serve there, is 405 with Allow naming the methods it does, and the
// documented error body; a path it does not serve stays 404.
func TestWrongMethodIs405(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	for _, c := range []struct {
		method, path string
		status       int
		allow        string
	}{
		{"GET", "/api/v1/payments/initiate", http.StatusMethodNotAllowed, "POST"},
		{"DELETE", "/api/v1/payments", http.StatusMethodNotAllowed, "GET, HEAD"},
		{"GET", "/api/v1/payments/pay_01/retry", http.StatusMethodNotAllowed, "POST"},
		{"POST", "/api/v1/payments/pay_01/status", http.StatusMethodNotAllowed, "GET, HEAD"},
		{"PUT", "/api/v1/tax/payments/taxp_01", http.StatusMethodNotAllowed, "GET, HEAD, DELETE"},
		{"POST", "/healthz", http.StatusMethodNotAllowed, "GET, HEAD"},
		{"GET", "/api/v1/payments/pay_01/bogus", http.StatusNotFound, ""},
		{"GET", "/api/v1/nothing-here", http.StatusNotFound, ""},
	} {
		t.Run(c.method+" "+c.path, func(t *testing.T) {
			is := is.New(t)
			r := e.req(c.method, c.path, nil)
			is.Equal(r.Status, c.status)
			is.Equal(r.Header.Get("Allow"), c.allow)
			if c.status == http.StatusMethodNotAllowed {
				is.Equal(r.errCode(t), "ERR_METHOD_NOT_ALLOWED")
			}
		})
	}
}
