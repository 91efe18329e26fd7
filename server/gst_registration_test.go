package server_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

// TestGSTLiableFromTheCrossing: ₹9,99,000 of exports on 10 June, ₹10,82,250
// on 5 October (turnover ₹20,81,250 crosses ₹20 lakh that day) and
// ₹1,66,500 on 20 November. IGST is owed on the supplies from 5 October
// only, 18% of ₹12,48,750 = ₹2,24,775, before and after a GSTIN is
// entered; June's export is never in GSTR-3B.
func TestGSTLiableFromTheCrossing(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.limits = map[string]int{"initiate": 1000, "confirm": 1000} })
	e.approveKYC(e.UserID)
	clock := e.fixClock(ist(2026, time.June, 10, 12, 0))
	e.pay("12000.00", map[string]any{"counterpartyCountry": "US", "invoiceRef": "INV-JUN"})
	e.quiesce()
	clock.Set(ist(2026, time.October, 5, 12, 0))
	e.pay("13000.00", map[string]any{"counterpartyCountry": "US", "invoiceRef": "INV-OCT"})
	e.quiesce()
	clock.Set(ist(2026, time.November, 20, 12, 0))
	e.pay("2000.00", map[string]any{"counterpartyCountry": "US", "invoiceRef": "INV-NOV"})
	e.quiesce()
	const (
		gst = "/api/v1/compliance/gst/summary?fy=2026-27"
		jun = "/api/v1/tax/exports/gst3b?period=2026-06"
		oct = "/api/v1/tax/exports/gst3b?period=2026-10"
	)
	e.checkFigures(t, "no GSTIN", []figure{
		{gst, "registration.crossedOn", "2026-10-05"}, {gst, "registration.liableFrom", "2026-10-05"},
		{gst, "notRegistered.totalInr", "999000.00"}, {gst, "liable.totalInr", "1248750.00"}, {gst, "liable.gstDue", "224775.00"},
		{jun, "outwardSupplies.zeroRated.taxableValue", "0.00"},
		{oct, "outwardSupplies.zeroRated.taxableValue", "1082250.00"}, {oct, "outwardSupplies.zeroRated.igst", "0.00"}, // not registered: nothing to pay in a return
	})
	e.setTaxProfile("", "")
	e.checkFigures(t, "GSTIN without its date", []figure{
		{gst, "registration.registered", "true"}, {gst, "registration.liableFrom", "2026-10-05"},
		{gst, "registration.liableFromAssumed", "true"}, {gst, "registration.priorYearCrossedOn", "null"},
		{gst, "notRegistered.totalInr", "999000.00"}, {gst, "liable.gstDue", "224775.00"},
		{jun, "outwardSupplies.zeroRated.taxableValue", "0.00"},
		{oct, "outwardSupplies.zeroRated.igst", "194805.00"}, {oct, "sup_details.osup_zero.iamt", "194805.00"},
	})
	if r := e.req("PATCH", "/api/v1/profile", map[string]any{"gstRegisteredFrom": "2026-10-05"}); r.Status != http.StatusOK {
		t.Fatalf("PATCH /profile: %d %s", r.Status, r.Body)
	}
	e.checkFigures(t, "GSTIN from the day", []figure{
		{gst, "registration.registeredFrom", "2026-10-05"}, {gst, "registration.liableFrom", "2026-10-05"},
		{gst, "registration.liableFromAssumed", "false"},
		{gst, "liable.gstDue", "224775.00"}, {jun, "outwardSupplies.zeroRated.taxableValue", "0.00"},
	})
}

// TestGSTINDatedByThePriorYear: turnover crossed ₹20 lakh on 10 February
// 2026 (₹20,81,250 in 2025-26) and again on 5 October 2026. With a GSTIN
// and no date, the earlier crossing dates the registration before 2026-27,
// so every export of 2026-27 is taxable (₹20,81,250, IGST ₹3,74,625) and
// the summary says it assumed so; entering the date replaces the
// assumption.
func TestGSTINDatedByThePriorYear(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.limits = map[string]int{"initiate": 1000, "confirm": 1000} })
	e.approveKYC(e.UserID)
	clock := e.fixClock(ist(2026, time.February, 10, 12, 0))
	for _, p := range []struct {
		at     time.Time
		amount string
	}{
		{ist(2026, time.February, 10, 12, 0), "25000.00"},
		{ist(2026, time.June, 10, 12, 0), "12000.00"},
		{ist(2026, time.October, 5, 12, 0), "13000.00"},
	} {
		clock.Set(p.at)
		e.pay(p.amount, map[string]any{"counterpartyCountry": "US", "invoiceRef": "INV-" + p.at.Format("0102")})
		e.quiesce()
	}
	const gst = "/api/v1/compliance/gst/summary?fy=2026-27"
	e.setTaxProfile("", "")
	e.checkFigures(t, "GSTIN without its date", []figure{
		{gst, "registration.crossedOn", "2026-10-05"}, {gst, "registration.priorYearCrossedOn", "2026-02-10"},
		{gst, "registration.liableFrom", "2026-04-01"}, {gst, "registration.liableFromAssumed", "true"},
		{gst, "notRegistered.totalInr", "0.00"}, {gst, "liable.totalInr", "2081250.00"}, {gst, "liable.gstDue", "374625.00"},
	})
	is.New(t).True(strings.Contains(at(e.getExact(gst), "registration.message"), "previous financial year"))
	if r := e.req("PATCH", "/api/v1/profile", map[string]any{"gstRegisteredFrom": "2026-10-05"}); r.Status != http.StatusOK {
		t.Fatalf("PATCH /profile: %d %s", r.Status, r.Body)
	}
	e.checkFigures(t, "the date given", []figure{
		{gst, "registration.liableFrom", "2026-10-05"}, {gst, "registration.liableFromAssumed", "false"},
		{gst, "registration.priorYearCrossedOn", "null"}, {gst, "notRegistered.totalInr", "999000.00"},
	})
}

// TestGSTLUTByItsDates: a registered Maharashtra exporter with exports on
// 10 May (₹9,99,000), 20 July (₹2,49,750) and 10 September (₹83,250) of
// 2026-27 records a LUT furnished on 1 August: all three are zero-rated,
// the two before 1 August ex post facto and labelled so; 2027-28 has no
// LUT, so its export on 15 April 2027 owes IGST. Before registering, the
// threshold follows the State: ₹10 lakh in Tripura (crossed on 20 July),
// ₹20 lakh in Himachal Pradesh (not crossed).
func TestGSTLUTByItsDates(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.limits = map[string]int{"initiate": 1000, "confirm": 1000} })
	e.approveKYC(e.UserID)
	clock := e.fixClock(ist(2026, time.May, 10, 12, 0))
	e.pay("12000.00", map[string]any{"counterpartyCountry": "US", "invoiceRef": "INV-MAY"})
	e.quiesce()
	clock.Set(ist(2026, time.July, 20, 12, 0))
	e.pay("3000.00", map[string]any{"counterpartyCountry": "US", "invoiceRef": "INV-JUL"})
	e.quiesce()
	const gst = "/api/v1/compliance/gst/summary?fy=2026-27"
	patch := func(t *testing.T, body map[string]any, want int) resp {
		t.Helper()
		r := e.req("PATCH", "/api/v1/profile", body)
		if r.Status != want {
			t.Fatalf("PATCH /profile %v: %d %s", body, r.Status, r.Body)
		}
		return r
	}
	patch(t, map[string]any{"stateCode": "16"}, http.StatusOK)
	e.checkFigures(t, "Tripura", []figure{
		{gst, "registration.state.name", "Tripura"}, {gst, "registration.state.specialCategory", "true"},
		{gst, "registration.threshold", "1000000.00"}, {gst, "registration.crossedOn", "2026-07-20"}, {gst, "registration.owesGst", "true"},
	})
	patch(t, map[string]any{"stateCode": "02"}, http.StatusOK)
	e.checkFigures(t, "Himachal Pradesh", []figure{
		{gst, "registration.state.name", "Himachal Pradesh"}, {gst, "registration.state.specialCategory", "false"},
		{gst, "registration.threshold", "2000000.00"}, {gst, "registration.crossedOn", "null"}, {gst, "registration.owesGst", "false"},
	})
	is.New(t).True(strings.Contains(at(e.getExact(gst), "registration.thresholdRule"), "Himachal Pradesh"))
	t.Run("ErrGSTINOfAnotherState", func(t *testing.T) {
		r := patch(t, map[string]any{"gstin": testGSTIN(t, testPAN)}, http.StatusBadRequest) // Maharashtra's, State 02 on file
		is.New(t).True(r.field(t, "gstin") != "")
	})
	t.Run("ErrStateCode", func(t *testing.T) {
		r := patch(t, map[string]any{"stateCode": "99"}, http.StatusBadRequest)
		is.New(t).True(r.field(t, "stateCode") != "")
	})
	patch(t, map[string]any{"stateCode": "", "gstRegisteredFrom": "2025-04-01"}, http.StatusOK)
	e.setTaxProfile("", "")

	clock.Set(ist(2026, time.September, 10, 12, 0))
	e.pay("1000.00", map[string]any{"counterpartyCountry": "US", "invoiceRef": "INV-SEP"})
	e.quiesce()
	e.checkFigures(t, "no LUT yet", []figure{
		{gst, "lut.filed", "false"}, {gst, "liable.transactionCount", "3"}, {gst, "liable.gstDue", "239760.00"},
	})
	r := e.req("POST", "/api/v1/tax/luts", map[string]any{"arn": "AD2708260001234", "fy": "2026-27", "furnishedOn": "2026-08-01"})
	if r.Status != http.StatusCreated {
		t.Fatalf("POST /tax/luts: %d %s", r.Status, r.Body)
	}
	lut := r.JSON(t)
	e.checkFigures(t, "LUT furnished on 1 August", []figure{
		{gst, "lut.filed", "true"}, {gst, "lut.lutNumber", "AD2708260001234"}, {gst, "lut.furnishedOn", "2026-08-01"},
		{gst, "lut.validUntil", "2027-03-31"},
		{gst, "zeroRated.transactionCount", "3"}, {gst, "zeroRated.totalInr", "1332000.00"},
		{gst, "zeroRatedExPostFacto.transactionCount", "2"}, {gst, "zeroRatedExPostFacto.totalInr", "1248750.00"},
		{gst, "zeroRatedExPostFacto.label", "ex post facto (Circular 37/11/2018-GST, para 4.1)"},
		{gst, "liable.transactionCount", "0"}, {gst, "liable.gstDue", "0.00"},
		{"/api/v1/tax/exports/gst3b?period=2026-05", "outwardSupplies.zeroRated.taxableValue", "999000.00"},
		{"/api/v1/tax/exports/gst3b?period=2026-05", "outwardSupplies.zeroRated.igst", "0.00"},
	})
	t.Run("ErrSecondForTheYear", func(t *testing.T) {
		r := e.req("POST", "/api/v1/tax/luts", map[string]any{"arn": "AD2708260009999", "fy": "2026-27", "furnishedOn": "2026-08-02"})
		is.New(t).Equal(r.Status, http.StatusConflict)
	})

	clock.Set(ist(2027, time.April, 15, 12, 0))
	e.pay("1000.00", map[string]any{"counterpartyCountry": "US", "invoiceRef": "INV-APR"})
	e.quiesce()
	e.checkFigures(t, "a year without a LUT", []figure{
		{"/api/v1/compliance/gst/summary?fy=2027-28", "lut.filed", "false"},
		{"/api/v1/compliance/gst/summary?fy=2027-28", "liable.gstDue", "14985.00"},
		{gst, "zeroRated.transactionCount", "3"},
	})

	// Withdrawn, the LUT stops counting: the year's exports are liable again.
	if r := e.req("DELETE", "/api/v1/tax/luts/"+lut["id"].(string), nil); r.Status != http.StatusOK {
		t.Fatalf("DELETE /tax/luts: %d %s", r.Status, r.Body)
	}
	e.checkFigures(t, "withdrawn", []figure{{gst, "lut.filed", "false"}, {gst, "liable.transactionCount", "3"}})
}
