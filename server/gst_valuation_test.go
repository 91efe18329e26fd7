package server_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/store"
)

// TestGSTValueAtTimeOfSupplyRate: a receipt invoiced in April, when the
// recorded USD rate was ₹80.00, and paid in May at the sandbox's ₹83.25 is
// valued for GST at the invoice date's rate (CGST Rules r.34(2)) in April's
// GSTR-3B; income tax counts the INR credited in May. A second one, invoiced
// on a day without a recorded rate and for more than was paid, is valued at
// the latest earlier rate on its invoice amount.
//
//	A USD 1,000.00 invoice 20 Apr (rate 80.00)           → GST ₹80,000.00, credited ₹83,250.00
//	B USD   490.00 invoice 25 Apr for USD 500.00 (none)  → GST ₹40,000.00 at 80.00 of 20 Apr, credited ₹40,792.50
func TestGSTValueAtTimeOfSupplyRate(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.limits = map[string]int{"initiate": 1000, "confirm": 1000} })
	e.approveKYC(e.UserID)
	clock := e.fixClock(ist(2026, time.May, 10, 12, 0))
	e.setTaxProfile("", "") // registered (GSTIN), no LUT: IGST at 18%
	is.New(t).NoErr(e.DB.WithTx(context.Background(), func(tx *store.Tx) error {
		return tx.Tax().RecordRates(false, []store.Rate{{Currency: "USD", Rate: "80.00", AsOf: ist(2026, time.April, 20, 9, 0)}})
	}))
	a := e.pay("1000.00", map[string]any{"counterpartyCountry": "US", "invoiceRef": "INV-A", "invoiceDate": "2026-04-20"})
	e.pay("490.00", map[string]any{"counterpartyCountry": "US", "invoiceRef": "INV-B", "invoiceDate": "2026-04-25", "invoiceAmount": "500.00"})
	e.quiesce()
	clock.Set(ist(2026, time.May, 11, 12, 0))

	const (
		apr = "/api/v1/tax/exports/gst3b?period=2026-04"
		may = "/api/v1/tax/exports/gst3b?period=2026-05"
		gst = "/api/v1/compliance/gst/summary?fy=2026-27"
	)
	e.checkFigures(t, "valued at the invoice date's rate", []figure{
		{apr, "outwardSupplies.zeroRated.taxableValue", "120000.00"}, {apr, "outwardSupplies.zeroRated.igst", "21600.00"},
		{apr, "rates.0.rate", "80.00"}, {apr, "rates.0.rateDate", "2026-04-20"},
		{apr, "rates.0.timeOfSupplyFrom", "2026-04-20"}, {apr, "rates.0.timeOfSupplyTo", "2026-04-25"},
		{apr, "rates.0.receipts", "2"}, {apr, "rates.0.invoiceValue", "1500.00"}, {apr, "rates.0.basis", "latestEarlier"},
		{may, "outwardSupplies.zeroRated.taxableValue", "0.00"},
		{gst, "liable.totalInr", "120000.00"}, {gst, "liable.gstDue", "21600.00"}, {gst, "rates.0.rate", "80.00"},
		{gst, "registration.registered", "true"},
		// Income tax follows the INR credited on the settlement date.
		{"/api/v1/tax/liability?fy=2026-27", "grossReceipts", "124042.50"},
	})
	is := is.New(t)
	var firaID string
	for _, it := range e.getExact("/api/v1/compliance/fira?paymentId=" + a)["items"].([]any) {
		firaID = it.(map[string]any)["id"].(string)
	}
	f := e.getExact("/api/v1/compliance/fira/" + firaID)
	is.Equal(at(f, "invoiceDate"), "2026-04-20")
	is.Equal(at(f, "gst.timeOfSupply"), "2026-04-20")
	is.Equal(at(f, "gst.timeOfSupplyBasis"), "invoiceDate")
	is.Equal(at(f, "gst.rate"), "80.00")
	is.Equal(at(f, "gst.rateDate"), "2026-04-20")
	is.Equal(at(f, "gst.taxableValue"), "80000.00")
	is.Equal(at(f, "amountInr"), "83250.00") // the advice still says what was credited

	// A rebuild from the reconciliations gives the same GST days.
	_, err := e.SQL.Exec("DELETE FROM tax_refresh_state WHERE user_id = ?", e.UserID)
	is.NoErr(err)
	e.refreshTax()
	is.Equal(at(e.getExact(apr), "outwardSupplies.zeroRated.taxableValue"), "120000.00")
}

// TestGSTRegistrationThreshold: without a GSTIN nothing is owed while the
// year's turnover stays within ₹20 lakh; the receipt that takes it over
// says registration is due within 30 days, and from that day exports are
// shown as liable; the GSTR-3B export says not registered and shows no tax.
//
//	12,000 USD on 10 Apr = ₹9,99,000.00; 13,000 USD on 10 May = ₹10,82,250.00 (₹20,81,250 in all)
func TestGSTRegistrationThreshold(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.limits = map[string]int{"initiate": 1000, "confirm": 1000} })
	e.approveKYC(e.UserID)
	clock := e.fixClock(ist(2026, time.April, 10, 12, 0))
	e.pay("12000.00", map[string]any{"counterpartyCountry": "US", "invoiceRef": "INV-1"})
	e.quiesce()
	const (
		gst = "/api/v1/compliance/gst/summary?fy=2026-27"
		apr = "/api/v1/tax/exports/gst3b?period=2026-04"
		may = "/api/v1/tax/exports/gst3b?period=2026-05"
	)
	e.checkFigures(t, "below ₹20 lakh", []figure{
		{gst, "registration.registered", "false"}, {gst, "registration.owesGst", "false"},
		{gst, "registration.threshold", "2000000.00"}, {gst, "registration.aggregateTurnover", "999000.00"},
		{gst, "registration.crossedOn", "null"}, {gst, "notRegistered.transactionCount", "1"},
		{gst, "notRegistered.totalInr", "999000.00"}, {gst, "liable.gstDue", "0.00"}, {gst, "liable.transactionCount", "0"},
		// Exports before the supplier became liable are no taxable supply: GSTR-3B never shows them.
		{apr, "gstin", ""}, {apr, "registration.registered", "false"}, {apr, "outwardSupplies.zeroRated.taxableValue", "0.00"},
		{apr, "outwardSupplies.zeroRated.igst", "0.00"}, {apr, "sup_details.osup_zero.iamt", "0.00"},
	})
	is := is.New(t)
	is.True(strings.Contains(at(e.getExact(gst), "registration.message"), "no GST is owed"))
	is.True(strings.Contains(at(e.getExact(apr), "registration.message"), "Not registered"))

	clock.Set(ist(2026, time.May, 10, 12, 0))
	e.pay("13000.00", map[string]any{"counterpartyCountry": "US", "invoiceRef": "INV-2"})
	e.quiesce()
	e.checkFigures(t, "above ₹20 lakh", []figure{
		{gst, "registration.owesGst", "true"}, {gst, "registration.crossedOn", "2026-05-10"},
		{gst, "registration.registerBy", "2026-06-09"}, {gst, "registration.aggregateTurnover", "2081250.00"},
		{gst, "notRegistered.transactionCount", "1"}, {gst, "liable.transactionCount", "1"}, {gst, "liable.gstDue", "194805.00"},
		{may, "registration.crossedOn", "2026-05-10"}, {may, "outwardSupplies.zeroRated.igst", "0.00"},
	})
	is.True(strings.Contains(at(e.getExact(gst), "warnings.0"), "within 30 days, by 2026-06-09"))

	// A special-category State halves the threshold: the profile's older
	// yes/no while no State is known.
	if r := e.req("PATCH", "/api/v1/profile", map[string]any{"gstSpecialCategoryState": true}); r.Status != 200 {
		t.Fatalf("PATCH /profile: %d %s", r.Status, r.Body)
	}
	e.checkFigures(t, "special category", []figure{
		{gst, "registration.specialCategoryState", "true"}, {gst, "registration.threshold", "1000000.00"},
		{gst, "registration.crossedOn", "2026-05-10"}, {gst, "registration.state", "null"},
	})
	// A GSTIN (Maharashtra) sets the State, so ₹20 lakh again; without the
	// date registration took effect, supplies are taxable from the day the
	// threshold was crossed, as before the GSTIN: the April export is not.
	e.setTaxProfile("", "")
	e.checkFigures(t, "registered", []figure{
		{gst, "registration.registered", "true"}, {gst, "registration.state.name", "Maharashtra"},
		{gst, "registration.threshold", "2000000.00"}, {gst, "registration.liableFrom", "2026-05-10"},
		{gst, "liable.transactionCount", "1"}, {gst, "notRegistered.transactionCount", "1"},
		{may, "outwardSupplies.zeroRated.igst", "194805.00"},
		{apr, "outwardSupplies.zeroRated.taxableValue", "0.00"},
	})
	// Registered voluntarily from 1 April: both are liable.
	if r := e.req("PATCH", "/api/v1/profile", map[string]any{"gstRegisteredFrom": "2026-04-01"}); r.Status != 200 {
		t.Fatalf("PATCH /profile: %d %s", r.Status, r.Body)
	}
	e.checkFigures(t, "registered from 1 April", []figure{
		{gst, "registration.registeredFrom", "2026-04-01"}, {gst, "registration.liableFrom", "2026-04-01"},
		{gst, "liable.transactionCount", "2"}, {gst, "notRegistered.transactionCount", "0"},
		{apr, "outwardSupplies.zeroRated.taxableValue", "999000.00"},
	})
}
