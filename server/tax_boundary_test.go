package server_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/matryer/is"
)

// figure is one value an endpoint must show.
type figure struct{ path, field, want string }

func (e *env) checkFigures(t *testing.T, phase string, figs []figure) {
	t.Helper()
	bodies := map[string]map[string]any{}
	for _, f := range figs {
		if bodies[f.path] == nil {
			bodies[f.path] = e.getExact(f.path)
		}
		if got := at(bodies[f.path], f.field); got != f.want {
			t.Errorf("%s: GET %s %s = %s, want %s", phase, f.path, f.field, got, f.want)
		}
	}
}

// TestTaxFiguresAcrossBoundaries settles payouts either side of midnight IST
// on 31 March (a month and a financial-year boundary; every settlement below
// up to 1 April 00:50 IST is still 31 March in UTC) and of 30 April, and
// checks that liability, GST summary, GST-3B and ITR-4 prefill bucket them by
// the Indian calendar, and that an unreconciled payout counts nowhere until
// it is resolved.
//
// Receipts at ₹83.25/USD (IGST 18% per receipt, half-up):
//
//	A 1000.00 US  31 Mar 23:00 IST  ₹83,250.00  reconciled, LUT valid
//	B  500.00 GB  31 Mar 23:10 IST  ₹41,625.00  pending, then resolved
//	C  200.01 US   1 Apr 00:30 IST  ₹16,650.83  reconciled, IGST 2,997.15
//	D  100.00 —    1 Apr 00:45 IST   ₹8,325.00  reconciled, domestic
//	E  300.00 DE   1 Apr 00:50 IST  ₹24,975.00  pending (IGST 4,495.50), then resolved
//	F   12.34 US  30 Apr 23:50 IST   ₹1,027.31  reconciled, IGST 184.92
//	G   50.00 SG   1 May 00:10 IST   ₹4,162.50  reconciled, IGST 749.25
func TestTaxFiguresAcrossBoundaries(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.limits = map[string]int{"initiate": 1000, "confirm": 1000} })
	e.approveKYC(e.UserID)
	clock := e.fixClock(ist(2026, time.March, 31, 23, 0))
	// The LUT for FY 2025-26 ends with it: April receipts are liable.
	e.setTaxProfile("AD2703260001234", "2026-03-31")

	payAt := func(when time.Time, usd string, extra map[string]any) string {
		clock.Set(when)
		id := e.pay(usd, extra)
		e.quiesce()
		return id
	}
	payAt(ist(2026, time.March, 31, 23, 0), "1000.00", map[string]any{"counterpartyCountry": "US", "invoiceRef": "INV-A"})
	b := payAt(ist(2026, time.March, 31, 23, 10), "500.00", map[string]any{"counterpartyCountry": "GB"})
	payAt(ist(2026, time.April, 1, 0, 30), "200.01", map[string]any{"counterpartyCountry": "US", "invoiceRef": "INV-C"})
	payAt(ist(2026, time.April, 1, 0, 45), "100.00", map[string]any{"invoiceRef": "INV-D"})
	eid := payAt(ist(2026, time.April, 1, 0, 50), "300.00", map[string]any{"counterpartyCountry": "DE"})
	payAt(ist(2026, time.April, 30, 23, 50), "12.34", map[string]any{"counterpartyCountry": "US", "invoiceRef": "INV-F"})
	payAt(ist(2026, time.May, 1, 0, 10), "50.00", map[string]any{"counterpartyCountry": "SG", "invoiceRef": "INV-G"})

	const (
		liab25 = "/api/v1/tax/liability?fy=2025-26"
		liab26 = "/api/v1/tax/liability?fy=2026-27"
		gst25  = "/api/v1/compliance/gst/summary?fy=2025-26"
		gst26  = "/api/v1/compliance/gst/summary?fy=2026-27"
		itr25  = "/api/v1/compliance/itr4/prefill?fy=2025-26"
		itr26  = "/api/v1/compliance/itr4/prefill?fy=2026-27"
		mar    = "/api/v1/tax/exports/gst3b?period=2026-03"
		apr    = "/api/v1/tax/exports/gst3b?period=2026-04"
		may    = "/api/v1/tax/exports/gst3b?period=2026-05"
	)
	// Figures B and E do not change, before or after they are resolved.
	steady := []figure{
		{gst25, "liable.transactionCount", "0"}, {gst25, "domestic.transactionCount", "0"},
		{gst25, "lut.filed", "true"}, {gst25, "lut.validUntil", "2026-03-31"}, {gst25, "lut.lutNumber", "AD2703260001234"},
		{gst26, "lut.filed", "false"}, {gst26, "zeroRated.transactionCount", "0"}, {gst26, "zeroRated.totalInr", "0.00"},
		{gst26, "domestic.transactionCount", "1"}, {gst26, "domestic.totalInr", "8325.00"},
		{itr25, "earliestTransaction", "2026-03-31T17:30:00.000Z"},
		{itr26, "earliestTransaction", "2026-03-31T19:00:00.000Z"}, {itr26, "latestTransaction", "2026-04-30T18:40:00.000Z"},
		{itr26, "exportUrl", "http://payoutd.test/api/v1/compliance/itr4/prefill/export?fy=2026-27"},
		{mar, "outwardSupplies.zeroRated.igst", "0.00"},
		{may, "outwardSupplies.zeroRated.taxableValue", "4162.50"}, {may, "outwardSupplies.zeroRated.igst", "749.25"},
	}
	before := append([]figure{
		{liab25, "grossReceipts", "83250.00"}, {liab25, "presumptiveIncome", "41625.00"}, {liab25, "taxableIncome", "41630.00"},
		{liab25, "estimatedTaxDue", "0.00"}, {liab25, "transactionCount", "1"},
		{liab26, "grossReceipts", "30165.64"}, {liab26, "presumptiveIncome", "15083.00"}, {liab26, "transactionCount", "4"},
		{gst25, "zeroRated.transactionCount", "1"}, {gst25, "zeroRated.totalInr", "83250.00"},
		{gst26, "liable.transactionCount", "3"}, {gst26, "liable.totalInr", "21840.64"}, {gst26, "liable.gstDue", "3931.32"},
		{itr25, "transactionCount", "1"}, {itr25, "grossReceipts", "83250.00"}, {itr25, "latestTransaction", "2026-03-31T17:30:00.000Z"},
		{itr26, "transactionCount", "4"}, {itr26, "grossReceipts", "30165.64"}, {itr26, "presumptiveTaxableIncome", "15083.00"},
		{mar, "outwardSupplies.zeroRated.taxableValue", "83250.00"}, {mar, "outwardSupplies.total.taxableValue", "83250.00"},
		{apr, "outwardSupplies.zeroRated.taxableValue", "17678.14"}, {apr, "outwardSupplies.zeroRated.igst", "3182.07"},
		{apr, "sup_details.osup_zero.iamt", "3182.07"},
		// B and E are settled but pending: reported as left out, never silently.
		{liab25, "unreconciled.transactionCount", "1"}, {liab25, "unreconciled.totalInr", "41625.00"},
		{liab25, "unreconciled.paymentIds.0", b}, {itr25, "unreconciled.transactionCount", "1"},
		{gst25, "unreconciled.totalInr", "41625.00"},
		{liab26, "unreconciled.transactionCount", "1"}, {liab26, "unreconciled.totalInr", "24975.00"},
		{gst26, "unreconciled.paymentIds.0", eid}, {itr26, "unreconciled.totalInr", "24975.00"},
	}, steady...)
	e.checkFigures(t, "before resolving", before)

	clock.Set(ist(2026, time.May, 2, 10, 0))
	for _, id := range []string{b, eid} {
		if r := e.req("POST", "/api/v1/ledger/reconciliation/"+id+"/resolve", map[string]any{"invoiceRef": "INV-" + id}); r.Status != http.StatusOK {
			t.Fatalf("resolve %s: %d %s", id, r.Status, r.Body)
		}
	}
	e.quiesce()
	after := append([]figure{
		{liab25, "grossReceipts", "124875.00"}, {liab25, "presumptiveIncome", "62438.00"}, {liab25, "taxableIncome", "62440.00"},
		{liab25, "transactionCount", "2"}, {liab25, "asOf", "2026-05-02T04:30:00.000Z"},
		{liab26, "grossReceipts", "55140.64"}, {liab26, "transactionCount", "5"},
		{gst25, "zeroRated.transactionCount", "2"}, {gst25, "zeroRated.totalInr", "124875.00"},
		{gst26, "liable.transactionCount", "4"}, {gst26, "liable.totalInr", "46815.64"}, {gst26, "liable.gstDue", "8426.82"},
		{itr25, "transactionCount", "2"}, {itr25, "grossReceipts", "124875.00"}, {itr25, "latestTransaction", "2026-03-31T17:40:00.000Z"},
		{itr26, "transactionCount", "5"}, {itr26, "grossReceipts", "55140.64"},
		{mar, "outwardSupplies.zeroRated.taxableValue", "124875.00"},
		{apr, "outwardSupplies.zeroRated.taxableValue", "42653.14"}, {apr, "outwardSupplies.zeroRated.igst", "7677.57"},
		{liab25, "unreconciled.transactionCount", "0"}, {gst26, "unreconciled.totalInr", "0.00"},
		{itr26, "unreconciled.paymentIds.0", "<missing>"},
	}, steady...)
	e.checkFigures(t, "after resolving", after)

	t.Run("RefreshIsIdempotent", func(t *testing.T) {
		is := is.New(t)
		// A full rebuild (forced by forgetting the refresh state) and a
		// second incremental refresh leave the same aggregates.
		snapshot := func() string {
			var s string
			is.NoErr(e.SQL.QueryRow(`SELECT group_concat(day || ':' || cross_border || ':' || txn_count || ':' || amount_inr || ':' || igst_18, ',')
				FROM (SELECT * FROM tax_days WHERE user_id = ? ORDER BY day, cross_border)`, e.UserID).Scan(&s))
			return s
		}
		want := snapshot()
		_, err := e.SQL.Exec("DELETE FROM tax_refresh_state WHERE user_id = ?", e.UserID)
		is.NoErr(err)
		for i := 0; i < 2; i++ {
			e.refreshTax()
			is.Equal(snapshot(), want)
		}
		e.checkFigures(t, "after rebuild", after)
	})
}
