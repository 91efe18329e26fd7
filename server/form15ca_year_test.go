package server_test

import (
	"testing"
	"time"

	"github.com/matryer/is"
)

// TestForm15CAYearAggregate: the hypothetical Form 15CA part is judged on
// the financial year's aggregate (rule 37BB(1)): USD 4,804.80
// (₹3,99,999.60) on 10 June, then USD 1,201.20 (₹99,999.90) on 10 July
// make ₹4,99,999.50, Part A; USD 1.00 (₹83.25) later that day takes the
// year past ₹5 lakh, Part C, though it is tiny; the first receipt stays
// Part A (only earlier receipts count); on 2 April 2027 the new year starts
// from nothing.
func TestForm15CAYearAggregate(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.limits = map[string]int{"initiate": 1000, "confirm": 1000} })
	e.approveKYC(e.UserID)
	clock := e.fixClock(ist(2026, time.June, 10, 12, 0))
	pay := func(amount, ref string) string {
		t.Helper()
		id := e.pay(amount, map[string]any{"counterpartyCountry": "US", "invoiceRef": ref})
		e.quiesce()
		return id
	}
	june := pay("4804.80", "INV-1")
	clock.Set(ist(2026, time.July, 10, 12, 0))
	july := pay("1201.20", "INV-2")
	clock.Set(ist(2026, time.July, 10, 15, 0))
	small := pay("1.00", "INV-3")
	clock.Set(ist(2027, time.April, 2, 12, 0))
	april := pay("1201.20", "INV-4")

	for _, c := range []struct {
		name, id, fy, aggregate, aggregatePaise, part string
		ca                                            bool
	}{
		{"FirstOfTheYear", june, "2026-27", "399999.60", "39999960", "A", false},
		{"AggregateWithinTheLimit", july, "2026-27", "499999.50", "49999950", "A", false},
		{"SmallPastTheLimit", small, "2026-27", "500082.75", "50008275", "C", true},
		{"NextYear", april, "2027-28", "99999.90", "9999990", "A", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			m := e.getExact("/api/v1/payments/" + c.id + "/form15ca")
			is.Equal(at(m, "financialYear"), c.fy)
			is.Equal(at(m, "yearAggregateInr"), c.aggregate)
			is.Equal(at(m, "yearAggregateInrPaise"), c.aggregatePaise)
			is.Equal(at(m, "part"), c.part)
			is.Equal(at(m, "requiresCA"), map[bool]string{true: "true", false: "false"}[c.ca])
		})
	}
}
