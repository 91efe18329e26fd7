package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/matryer/is"
)

// itr4Env settles FY 2025-26 receipts of ₹24,60,000.04 (taxable income
// ₹12,30,000, tax due ₹31,200) for a profile with PAN and phone, and leaves
// the clock at 21 Nov 2026 15:30 IST.
func itr4Env(t *testing.T) *env {
	e := newEnv(t)
	clock := e.fixClock(ist(2025, time.June, 10, 12, 0))
	e.setTaxProfile("", "")
	e.pay("28828.83", map[string]any{"invoiceRef": "INV-1"})
	e.pay("720.72", map[string]any{"invoiceRef": "INV-2"})
	e.quiesce()
	clock.Set(ist(2026, time.November, 21, 15, 30))
	return e
}

func TestITR4(t *testing.T) {
	t.Parallel()
	e := itr4Env(t)
	t.Run("Prefill", func(t *testing.T) {
		const p = "/api/v1/compliance/itr4/prefill?fy=2025-26"
		e.checkFigures(t, "prefill", []figure{
			{p, "financialYear", "2025-26"}, {p, "assessmentYear", "2026-27"}, {p, "section", "44ADA"},
			{p, "grossReceipts", "2460000.04"}, {p, "presumptiveTaxableIncome", "1230000.00"}, {p, "transactionCount", "2"},
			{p, "earliestTransaction", "2025-06-10T06:30:00.000Z"}, {p, "latestTransaction", "2025-06-10T06:30:00.000Z"},
			{p, "exportUrl", "http://payoutd.test/api/v1/compliance/itr4/prefill/export?fy=2025-26"},
			{p, "asOf", "2025-06-10T06:30:00.000Z"},
		})
	})
	t.Run("PrefillDefaultsToCurrentYear", func(t *testing.T) {
		e.checkFigures(t, "default", []figure{
			{"/api/v1/compliance/itr4/prefill", "financialYear", "2026-27"},
			{"/api/v1/compliance/itr4/prefill", "transactionCount", "0"},
			{"/api/v1/compliance/itr4/prefill", "earliestTransaction", "null"},
		})
	})
	t.Run("ExportIsOneFileAtBothURLs", func(t *testing.T) {
		is := is.New(t)
		a := e.req("GET", "/api/v1/compliance/itr4/prefill/export?fy=2025-26", nil)
		b := e.req("GET", "/api/v1/tax/exports/itr4?fy=2025-26", nil)
		is.Equal(a.Status, http.StatusOK)
		is.Equal(a.Header.Get("Content-Type"), "application/json")
		is.Equal(a.Header.Get("Content-Disposition"), `attachment; filename="ITR4-2026-27.json"`)
		is.Equal(a.Header.Get("Link"), `<http://payoutd.test/api/v1/compliance/itr4/prefill?fy=2025-26>; rel="describedby"`)
		is.True(bytes.Equal(a.Body, b.Body))
		var root map[string]any
		is.NoErr(json.Unmarshal(a.Body, &root))
		is.Equal(len(root), 1) // "ITR" alone: the notes are in the prefill
		var doc struct {
			ITR struct {
				ITR4 struct {
					TaxComputation struct{ NetTaxLiability int64 }
					ScheduleBP     struct {
						PersumptiveInc44ADA struct{ GrsReceipt, TotPersumptiveInc44ADA int64 }
					}
				}
			}
		}
		is.NoErr(json.Unmarshal(a.Body, &doc))
		is.Equal(doc.ITR.ITR4.ScheduleBP.PersumptiveInc44ADA.GrsReceipt, int64(2460000))
		is.Equal(doc.ITR.ITR4.ScheduleBP.PersumptiveInc44ADA.TotPersumptiveInc44ADA, int64(1230000))
		is.Equal(doc.ITR.ITR4.TaxComputation.NetTaxLiability, int64(31200))
	})
	t.Run("ExportScopes", func(t *testing.T) {
		for _, c := range []struct {
			scope  string
			status int
		}{{"compliance:read", 200}, {"tax:read", 200}, {"ledger:read", 403}} {
			key, _, _ := e.newUser(c.scope+"@example.com", false, []string{c.scope})
			for _, path := range []string{"/api/v1/compliance/itr4/prefill/export", "/api/v1/tax/exports/itr4"} {
				if r := e.reqAs(key, "GET", path, nil); r.Status != c.status {
					t.Errorf("%s with %s: %d, want %d", path, c.scope, r.Status, c.status)
				}
			}
		}
	})
	t.Run("ErrFY", func(t *testing.T) {
		is := is.New(t)
		for _, path := range []string{"/api/v1/compliance/itr4/prefill?fy=2019-20", "/api/v1/tax/exports/itr4?fy=x",
			"/api/v1/compliance/itr4/prefill/export?fy=2025-2026"} {
			r := e.req("GET", path, nil)
			is.Equal(r.Status, http.StatusBadRequest)
			is.True(r.field(t, "fy") != "")
		}
	})
}

// TestITR4Golden pins the ITR-4 file the export serves.
func TestITR4Golden(t *testing.T) {
	t.Parallel()
	e := itr4Env(t)
	r := e.req("GET", "/api/v1/tax/exports/itr4?fy=2025-26", nil)
	is.New(t).Equal(r.Status, http.StatusOK)
	golden(t, "itr4.golden.json", r.Body)
}

// TestITR4FileMatchesLiability: 29,549.67 USD × ₹83.25 = ₹24,60,010.03, so
// GrsReceipt 24,60,010; presumptive ⌈12,30,005⌉ = 12,30,005 (exactly half);
// total income 12,30,010 (s.288A, last digit 5 rounds up); slab tax
// 64,501.50 → 64,502; rebate 34,492 leaves the 30,010 above ₹12 lakh; cess
// 1,200.40 → 1,200; net 31,210. The file states every figure as the
// liability does, to the rupee.
func TestITR4FileMatchesLiability(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.fixClock(ist(2025, time.June, 10, 12, 0))
	e.setTaxProfile("", "")
	e.pay("29549.67", map[string]any{"invoiceRef": "INV-1"})
	e.quiesce()
	is := is.New(t)
	l := e.getExact("/api/v1/tax/liability?fy=2025-26")
	r := e.req("GET", "/api/v1/tax/exports/itr4?fy=2025-26", nil)
	is.Equal(r.Status, http.StatusOK)
	var doc map[string]any
	d := json.NewDecoder(bytes.NewReader(r.Body))
	d.UseNumber()
	is.NoErr(d.Decode(&doc))
	rupees := func(path string) string { return at(doc, "ITR.ITR4."+path) + ".00" }
	for _, c := range []struct{ file, liability, want string }{
		{"ScheduleBP.PersumptiveInc44ADA.TotPersumptiveInc44ADA", "presumptiveIncome", "1230005.00"},
		{"IncomeDeductions.TotalIncome", "taxableIncome", "1230010.00"},
		{"TaxComputation.TotalTaxPayable", "computation.taxOnIncome", "64502.00"},
		{"TaxComputation.Rebate87A", "computation.rebate87A", "34492.00"},
		{"TaxComputation.EducationCess", "computation.cess", "1200.00"},
		{"TaxComputation.NetTaxLiability", "computation.netTax", "31210.00"},
	} {
		is.Equal(rupees(c.file), c.want)
		is.Equal(at(l, c.liability), c.want)
	}
	is.Equal(at(doc, "ITR.ITR4.ScheduleBP.PersumptiveInc44ADA.GrsReceipt"), "2460010")
	is.Equal(at(l, "estimatedTaxDue"), "31210.00")
}
