package server_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/store"
)

// TestPaymentListFilters: GET /payments and /payments/payouts filter by
// status, currency, invoiceRef and createdFrom/createdTo (inclusive, a date
// meaning the whole day), alone and together; total counts the matches and
// an unknown status is 400 naming the allowed values.
func TestPaymentListFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver, o.limits = true, map[string]int{"initiate": 100} })
	clock := e.fixClock(time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC))
	ids := map[string]string{}
	initiate := func(name, amount, currency, ref string) {
		body := map[string]any{"amount": amount, "currency": currency, "destinationAddress": testAddress, "invoiceRef": ref}
		r := e.req("POST", "/api/v1/payments/initiate", body)
		if r.Status != http.StatusCreated {
			t.Fatalf("initiate %s: %d %s", name, r.Status, r.Body)
		}
		ids[name] = r.JSON(t)["id"].(string)
	}
	initiate("mar1", "10.00", "USD", "INV-1")
	clock.Set(time.Date(2026, 3, 2, 23, 59, 59, 999_000_000, time.UTC))
	initiate("mar2late", "11.00", "USD", "INV-2")
	clock.Set(time.Date(2026, 3, 3, 0, 0, 0, 0, time.UTC))
	initiate("mar3", "1500", "JPY", "INV-2")
	initiate("mar3b", "12.00", "USD", "INV-3")
	// Move one to FAILED by hand (River is off) so the status filter has
	// two states to tell apart.
	is.New(t).NoErr(e.DB.WithTx(t.Context(), func(tx *store.Tx) error {
		p, err := tx.Payments().FindPayment(e.UserID, ids["mar3b"])
		if err != nil {
			return err
		}
		if err := tx.Payments().Transition(&p, store.StatusComplianceCheck, nil); err != nil {
			return err
		}
		return tx.Payments().Transition(&p, store.StatusFailed, func(p *store.Payment) { p.FailedReason = "COMPLIANCE_REJECTED: test" })
	}))

	cases := []struct {
		query string
		want  []string // newest first
	}{
		{"", []string{"mar3b", "mar3", "mar2late", "mar1"}},
		{"status=INITIATED", []string{"mar3", "mar2late", "mar1"}},
		{"status=FAILED", []string{"mar3b"}},
		{"currency=JPY", []string{"mar3"}},
		{"currency=USD&status=INITIATED", []string{"mar2late", "mar1"}},
		{"invoiceRef=INV-2", []string{"mar3", "mar2late"}},
		{"invoiceRef=inv-2", nil},
		{"createdFrom=2026-03-02", []string{"mar3b", "mar3", "mar2late"}},
		{"createdTo=2026-03-02", []string{"mar2late", "mar1"}},
		{"createdFrom=2026-03-02&createdTo=2026-03-02", []string{"mar2late"}},
		{"createdFrom=2026-03-02T23:59:59.999Z&createdTo=2026-03-03T00:00:00Z", []string{"mar3b", "mar3", "mar2late"}},
		{"createdFrom=2026-03-03T05:30:00%2B05:30", []string{"mar3b", "mar3"}},
		{"createdTo=2026-02-28", nil},
	}
	for _, path := range []string{"/api/v1/payments", "/api/v1/payments/payouts"} {
		for _, c := range cases {
			t.Run(strings.TrimPrefix(path, "/api/v1/")+"?"+c.query, func(t *testing.T) {
				is := is.New(t)
				p := e.listPage(path + "?" + c.query)
				var want []string
				for _, n := range c.want {
					want = append(want, ids[n])
				}
				got := idsOf(p.Items)
				if len(want) == 0 {
					want = []string{}
				}
				is.Equal(got, want)
				is.Equal(p.Total, len(want))
				is.True(!p.HasMore)
			})
		}
	}
	is := is.New(t)
	r := e.req("GET", "/api/v1/payments?status=DONE", nil)
	is.Equal(r.Status, http.StatusBadRequest)
	is.Equal(r.errCode(t), "ERR_VALIDATION")
	is.True(strings.Contains(r.field(t, "status"), "COMPLETED"))
	is.True(strings.Contains(r.field(t, "status"), "MANUAL_REVIEW"))
	// Filters and the cursor together: the walk stays inside the filter.
	is.Equal(e.walk("/api/v1/payments?currency=USD", 1), []string{ids["mar3b"], ids["mar2late"], ids["mar1"]})
}
