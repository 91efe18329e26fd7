package server_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

// TestGSTTimeOfSupply: a receipt with an invoice date counts for GST in the
// month of that date, one without in the month of its IST settlement date;
// income tax always follows the settlement date. The profile's LUT covers
// FY 2025-26 only (valid until 31 March 2026).
//
//	A 100.00 US  invoice 31 Mar 2026, settled 1 Apr 00:01 IST  ₹8,325.00
//	B 200.00 US  no invoice date,     settled 1 Apr 00:01 IST  ₹16,650.00, IGST 2,997.00
//	C  50.00 GB  no invoice date,     settled 31 Mar 23:59 IST ₹4,162.50
//	D  10.00 US  invoice 1 Apr 2026 (its settlement day), 1 Apr 00:01 IST ₹832.50, IGST 149.85
//	E  30.00 US  invoice 30 Mar 2026, settled 1 Apr 00:01 IST, pending until
//	             resolved on 2 Apr                          ₹2,497.50
func TestGSTTimeOfSupply(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.limits = map[string]int{"initiate": 1000, "confirm": 1000} })
	e.approveKYC(e.UserID)
	clock := e.fixClock(ist(2026, time.March, 31, 23, 59))
	e.setTaxProfile("AD2703260001234", "2026-03-31")
	e.pay("50.00", map[string]any{"counterpartyCountry": "GB", "invoiceRef": "INV-C"})
	e.quiesce()
	clock.Set(ist(2026, time.April, 1, 0, 1))
	a := e.pay("100.00", map[string]any{"counterpartyCountry": "US", "invoiceRef": "INV-A", "invoiceDate": "2026-03-31"})
	e.pay("200.00", map[string]any{"counterpartyCountry": "US", "invoiceRef": "INV-B"})
	e.pay("10.00", map[string]any{"counterpartyCountry": "US", "invoiceRef": "INV-D", "invoiceDate": "2026-04-01"})
	pending := e.pay("30.00", map[string]any{"counterpartyCountry": "US", "invoiceDate": "2026-03-30"})
	e.quiesce()

	const (
		mar   = "/api/v1/tax/exports/gst3b?period=2026-03"
		apr   = "/api/v1/tax/exports/gst3b?period=2026-04"
		gst25 = "/api/v1/compliance/gst/summary?fy=2025-26"
		gst26 = "/api/v1/compliance/gst/summary?fy=2026-27"
	)
	e.checkFigures(t, "E pending", []figure{
		{mar, "outwardSupplies.zeroRated.taxableValue", "12487.50"}, {mar, "timeOfSupply.byInvoiceDate", "1"},
		{gst25, "unreconciled.transactionCount", "0"}, {gst26, "unreconciled.totalInr", "2497.50"},
	})
	clock.Set(ist(2026, time.April, 2, 10, 0))
	if r := e.req("POST", "/api/v1/ledger/reconciliation/"+pending+"/resolve", map[string]any{"invoiceRef": "INV-E"}); r.Status != http.StatusOK {
		t.Fatalf("resolve: %d %s", r.Status, r.Body)
	}
	e.quiesce()
	figures := []figure{
		// March: A and E by invoice date, C by settlement date; A and E are
		// zero-rated because the LUT covers their invoice dates.
		{mar, "outwardSupplies.zeroRated.taxableValue", "14985.00"}, {mar, "outwardSupplies.zeroRated.igst", "0.00"},
		{mar, "timeOfSupply.byInvoiceDate", "2"}, {mar, "timeOfSupply.bySettlementDate", "1"},
		// April: B by settlement date, D by its invoice date (the same day).
		{apr, "outwardSupplies.zeroRated.taxableValue", "17482.50"}, {apr, "outwardSupplies.zeroRated.igst", "3146.85"},
		{apr, "timeOfSupply.byInvoiceDate", "1"}, {apr, "timeOfSupply.bySettlementDate", "1"},
		{gst25, "zeroRated.transactionCount", "3"}, {gst25, "zeroRated.totalInr", "14985.00"},
		{gst25, "timeOfSupply.byInvoiceDate", "2"},
		{gst26, "zeroRated.transactionCount", "0"}, {gst26, "liable.transactionCount", "2"}, {gst26, "liable.gstDue", "3146.85"},
		// Income tax follows the settlement date: A, B, D and E are in FY 2026-27.
		{"/api/v1/tax/liability?fy=2025-26", "grossReceipts", "4162.50"},
		{"/api/v1/tax/liability?fy=2026-27", "grossReceipts", "28305.00"},
	}
	e.checkFigures(t, "resolved", figures)
	is := is.New(t)
	is.True(strings.Contains(at(e.getExact(mar), "timeOfSupply.rule"), "s.13 CGST Act"))
	p, err := e.DB.Payments().FindPayment(context.Background(), e.UserID, a)
	is.NoErr(err)
	is.Equal(p.InvoiceDate, "2026-03-31")

	// A rebuild from the reconciliations gives the same GST days.
	_, err = e.SQL.Exec("DELETE FROM tax_refresh_state WHERE user_id = ?", e.UserID)
	is.NoErr(err)
	e.refreshTax()
	e.checkFigures(t, "after rebuild", figures)
}

// TestInvoiceDateInput: ISO date, not in the future, not more than a year
// back, in IST. The clock is 1 April 2026 00:01 IST, still 31 March in UTC.
func TestInvoiceDateInput(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	e.fixClock(ist(2026, time.April, 1, 0, 1))
	for _, c := range []struct {
		name  string
		value any
		want  string // "" = accepted
	}{
		{"Today", "2026-04-01", ""},
		{"OneYearBack", "2025-04-01", ""},
		{"Empty", "", ""},
		{"ErrTomorrow", "2026-04-02", "must not be in the future (today is 2026-04-01 in IST)"},
		{"ErrTooOld", "2025-03-31", "must not be more than one year back (earliest 2025-04-01)"},
		{"ErrSlashes", "2026/03/31", "must be a date in the form YYYY-MM-DD"},
		{"ErrNoSuchDay", "2026-02-30", "must be a date in the form YYYY-MM-DD"},
		{"ErrDayFirst", "31-03-2026", "must be a date in the form YYYY-MM-DD"},
		{"ErrTimestamp", "2026-03-31T10:00:00Z", "must be a date in the form YYYY-MM-DD"},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			r := e.req("POST", "/api/v1/payments/initiate", map[string]any{"amount": "5.00", "currency": "USD",
				"destinationAddress": testAddress, "invoiceDate": c.value})
			if c.want == "" {
				is.Equal(r.Status, http.StatusCreated)
				if c.value != "" {
					is.Equal(r.JSON(t)["invoiceDate"], c.value)
				}
				return
			}
			is.Equal(r.Status, http.StatusBadRequest)
			is.Equal(r.errCode(t), "ERR_VALIDATION")
			is.Equal(r.field(t, "invoiceDate"), c.want)
		})
	}
	t.Run("ErrNotAString", func(t *testing.T) {
		is := is.New(t)
		r := e.req("POST", "/api/v1/payments/initiate", map[string]any{"amount": "5.00", "currency": "USD",
			"destinationAddress": testAddress, "invoiceDate": 20260331})
		is.Equal(r.Status, http.StatusBadRequest)
		is.True(r.field(t, "invoiceDate") != "")
	})
}
