package server_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/matryer/is"
)

// gstEnv settles, in October 2026 (FY 2026-27), one cross-border receipt
// inside the profile's LUT (valid until 10 Oct), one after it, and one
// domestic receipt, all reconciled.
func gstEnv(t *testing.T) *env {
	e := newEnv(t, func(o *envOpts) { o.limits = map[string]int{"initiate": 1000, "confirm": 1000} })
	e.approveKYC(e.UserID)
	clock := e.fixClock(ist(2026, time.October, 5, 11, 0))
	e.setTaxProfile("AD2704260009876", "2026-10-10")
	e.pay("1200.00", map[string]any{"counterpartyCountry": "US", "invoiceRef": "INV-OCT-1"}) // ₹99,900.00
	e.quiesce()
	clock.Set(ist(2026, time.October, 20, 11, 0))
	e.pay("12.34", map[string]any{"counterpartyCountry": "AU", "invoiceRef": "INV-OCT-2"}) // ₹1,027.31, IGST 184.92
	e.pay("100.00", map[string]any{"invoiceRef": "INV-OCT-3"})                             // domestic ₹8,325.00
	e.quiesce()
	clock.Set(ist(2026, time.November, 21, 15, 30))
	return e
}

func TestGSTSummary(t *testing.T) {
	t.Parallel()
	e := gstEnv(t)
	t.Run("LUTCoversOnlyUpToValidUntil", func(t *testing.T) {
		e.checkFigures(t, "summary", []figure{
			{"/api/v1/compliance/gst/summary", "financialYear", "2026-27"},
			{"/api/v1/compliance/gst/summary", "lut.filed", "true"},
			{"/api/v1/compliance/gst/summary", "lut.lutNumber", "AD2704260009876"},
			{"/api/v1/compliance/gst/summary", "lut.validUntil", "2026-10-10"},
			{"/api/v1/compliance/gst/summary", "zeroRated.transactionCount", "1"},
			{"/api/v1/compliance/gst/summary", "zeroRated.totalInr", "99900.00"},
			{"/api/v1/compliance/gst/summary", "liable.transactionCount", "1"},
			{"/api/v1/compliance/gst/summary", "liable.totalInr", "1027.31"},
			{"/api/v1/compliance/gst/summary", "liable.gstDue", "184.92"},
			{"/api/v1/compliance/gst/summary", "domestic.transactionCount", "1"},
			{"/api/v1/compliance/gst/summary", "domestic.totalInr", "8325.00"},
			{"/api/v1/compliance/gst/summary", "igstRatePercent", "18"},
		})
	})
	t.Run("NoLUTMakesEveryExportLiable", func(t *testing.T) {
		if r := e.req("PATCH", "/api/v1/profile", map[string]any{"lutNumber": "", "lutValidUntil": ""}); r.Status != http.StatusOK {
			t.Fatalf("PATCH /profile: %d %s", r.Status, r.Body)
		}
		// 18% of ₹99,900.00 = 17,982.00, plus 184.92.
		e.checkFigures(t, "no LUT", []figure{
			{"/api/v1/compliance/gst/summary?fy=2026-27", "lut.filed", "false"},
			{"/api/v1/compliance/gst/summary?fy=2026-27", "lut.lutNumber", ""},
			{"/api/v1/compliance/gst/summary?fy=2026-27", "lut.validUntil", "null"},
			{"/api/v1/compliance/gst/summary?fy=2026-27", "zeroRated.transactionCount", "0"},
			{"/api/v1/compliance/gst/summary?fy=2026-27", "liable.transactionCount", "2"},
			{"/api/v1/compliance/gst/summary?fy=2026-27", "liable.gstDue", "18166.92"},
		})
	})
	t.Run("ErrFY", func(t *testing.T) {
		is := is.New(t)
		r := e.req("GET", "/api/v1/compliance/gst/summary?fy=26-27", nil)
		is.Equal(r.Status, http.StatusBadRequest)
		is.True(r.field(t, "fy") != "")
	})
}

// TestGST3BGolden pins the GSTR-3B export of October 2026 byte for byte.
func TestGST3BGolden(t *testing.T) {
	t.Parallel()
	e := gstEnv(t)
	is := is.New(t)
	r := e.req("GET", "/api/v1/tax/exports/gst3b?period=2026-10", nil)
	is.Equal(r.Status, http.StatusOK)
	is.Equal(r.Header.Get("Content-Type"), "application/json")
	golden(t, "gst3b.golden.json", r.Body)
}

func TestGST3BInput(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	e.fixClock(ist(2026, time.November, 21, 15, 30))
	cases := []struct {
		name, query string
		status      int
	}{
		{"EmptyMonth", "?period=2026-09", 200},
		{"ErrMissing", "", 400},
		{"ErrMonth13", "?period=2026-13", 400},
		{"ErrFormat", "?period=2026-1", 400},
		{"ErrDate", "?period=2026-10-01", 400},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			r := e.req("GET", "/api/v1/tax/exports/gst3b"+c.query, nil)
			is.Equal(r.Status, c.status)
			if c.status != 200 {
				is.Equal(r.errCode(t), "ERR_VALIDATION")
				is.True(r.field(t, "period") != "")
				return
			}
			m := r.JSON(t)
			is.Equal(m["gstin"], "") // no GSTIN on the profile yet
			is.Equal(m["period"], "2026-09")
		})
	}
	t.Run("ErrScope", func(t *testing.T) {
		is := is.New(t)
		key, _, _ := e.newUser("compliance-only@example.com", false, []string{"compliance:read"})
		is.Equal(e.reqAs(key, "GET", "/api/v1/tax/exports/gst3b?period=2026-09", nil).Status, http.StatusForbidden)
	})
}
