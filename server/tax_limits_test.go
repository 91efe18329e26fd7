package server_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

// TestTaxAbove44ADALimit settles one receipt either side of ₹75 lakh in
// FY 2026-27 with the clock at 1 November 2026 (IST), all by bank.
//
// 90,090.08 USD × ₹83.25 = ₹74,99,999.16: 44ADA, ITR-4.
// 90,090.10 USD × ₹83.25 = ₹75,00,000.83 (₹75,00,001 in whole rupees): no
// 44ADA. Illustrative income ⌈37,50,000.5⌉ = 37,50,001 → ₹37,50,000 (s.288A);
// tax 3,00,000 + 30%×13,50,000 = 7,05,000; cess 28,200; due 7,33,200 in four
// instalments: 15% 1,09,980 (15 Jun, past), 45% 3,29,940 (15 Sep, past),
// 75% 5,49,900 (15 Dec), 100% 7,33,200 (15 Mar 2027).
func TestTaxAbove44ADALimit(t *testing.T) {
	t.Parallel()
	below := newEnv(t)
	below.approveKYC(below.UserID)
	below.fixClock(ist(2026, time.November, 1, 12, 0))
	below.pay("90090.08", map[string]any{"counterpartyCountry": "US", "invoiceRef": "INV-BIG"})
	below.quiesce()
	const liab = "/api/v1/tax/liability?fy=2026-27"
	below.checkFigures(t, "₹74,99,999.16", []figure{
		{liab, "grossReceipts", "7499999.16"}, {liab, "regime", "44ADA"}, {liab, "presumptiveAvailable", "true"},
		{liab, "auditRequired", "false"}, {liab, "returnForm", "ITR-4"}, {liab, "presumptiveIncome", "3750000.00"},
		{liab, "incomeBasis", "presumptive"}, {liab, "estimatedTaxDue", "733200.00"},
		{liab, "advanceTaxSchedule.0.dueDate", "2027-03-15"}, {liab, "advanceTaxSchedule.1", "<missing>"},
		{liab, "warnings", "null"},
	})
	if r := below.req("GET", "/api/v1/tax/exports/itr4?fy=2026-27", nil); r.Status != http.StatusOK {
		t.Fatalf("ITR-4 below the limit: %d %s", r.Status, r.Body)
	}

	e := newEnv(t)
	e.approveKYC(e.UserID)
	e.fixClock(ist(2026, time.November, 1, 12, 0))
	e.pay("90090.10", map[string]any{"counterpartyCountry": "US", "invoiceRef": "INV-BIG"})
	e.quiesce()
	e.checkFigures(t, "₹75,00,000.83", []figure{
		{liab, "grossReceipts", "7500000.83"}, {liab, "regime", "BOOKS"}, {liab, "presumptiveAvailable", "false"},
		{liab, "auditRequired", "true"}, {liab, "returnForm", "ITR-3"}, {liab, "presumptiveIncome", "null"},
		{liab, "incomeBasis", "illustrative"}, {liab, "taxableIncome", "3750000.00"}, {liab, "estimatedTaxDue", "733200.00"},
		{liab, "advanceTaxRequired", "true"},
		{liab, "advanceTaxSchedule.0.dueDate", "2026-06-15"}, {liab, "advanceTaxSchedule.0.percentDue", "15"},
		{liab, "advanceTaxSchedule.0.amount", "109980.00"}, {liab, "advanceTaxSchedule.0.past", "true"},
		{liab, "advanceTaxSchedule.1.dueDate", "2026-09-15"}, {liab, "advanceTaxSchedule.1.amount", "329940.00"},
		{liab, "advanceTaxSchedule.1.past", "true"},
		{liab, "advanceTaxSchedule.2.dueDate", "2026-12-15"}, {liab, "advanceTaxSchedule.2.amount", "549900.00"},
		{liab, "advanceTaxSchedule.2.past", "false"},
		{liab, "advanceTaxSchedule.3.dueDate", "2027-03-15"}, {liab, "advanceTaxSchedule.3.percentDue", "100"},
		{liab, "advanceTaxSchedule.3.amount", "733200.00"}, {liab, "advanceTaxSchedule.3.past", "false"},
	})
	is := is.New(t)
	m := e.getExact(liab)
	why := at(m, "warnings.0")
	// Tax year 2026-27 is under the Income-tax Act, 2025: its sections only.
	for _, want := range []string{"is not available", "ITR-3 (ITR-4 is not the right return)", "tax audit", "(s.63)",
		"books of account (s.62)", "four instalments (s.408(1))", "s.58(2) Table Sl. No. 3"} {
		is.True(strings.Contains(why, want))
	}
	is.True(strings.Contains(at(m, "advanceTaxNote"), "s.425"))

	// ITR-4 is refused with the same words the liability uses.
	for _, path := range []string{"/api/v1/compliance/itr4/prefill?fy=2026-27", "/api/v1/compliance/itr4/prefill/export?fy=2026-27",
		"/api/v1/tax/exports/itr4?fy=2026-27"} {
		r := e.req("GET", path, nil)
		is.Equal(r.Status, http.StatusConflict)
		is.Equal(r.errCode(t), "ERR_ITR4_NOT_APPLICABLE")
		is.Equal(r.JSON(t)["error"].(map[string]any)["message"], why)
		is.True(r.Header.Get("Content-Disposition") == "") // no file
	}
}

// TestTaxNextYear moves the clock to 1 April 2027 00:00 IST, the first
// instant of FY 2027-28, whose slabs are not in the tables: every default
// call still answers, income-tax figures are labelled provisional, and GST
// figures (which never use slabs) are not.
func TestTaxNextYear(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.approveKYC(e.UserID)
	clock := e.fixClock(ist(2027, time.March, 31, 23, 59))
	e.setTaxProfile("", "")
	e.pay("100.00", map[string]any{"counterpartyCountry": "US", "invoiceRef": "INV-MAR"}) // FY 2026-27
	e.quiesce()
	clock.Set(ist(2027, time.April, 1, 0, 1))
	e.pay("200.00", map[string]any{"counterpartyCountry": "US", "invoiceRef": "INV-APR"}) // FY 2027-28, ₹16,650
	e.quiesce()
	clock.Set(ist(2027, time.April, 1, 0, 0).Add(2 * time.Minute))

	const (
		liab = "/api/v1/tax/liability"
		gst  = "/api/v1/compliance/gst/summary"
		itr  = "/api/v1/compliance/itr4/prefill"
	)
	e.checkFigures(t, "1 April 2027", []figure{
		{liab, "financialYear", "2027-28"}, {liab, "provisional", "true"}, {liab, "slabsFinancialYear", "2026-27"},
		{liab, "grossReceipts", "16650.00"}, {liab, "transactionCount", "1"},
		{gst, "financialYear", "2027-28"}, {gst, "liable.totalInr", "16650.00"},
		{itr, "financialYear", "2027-28"}, {itr, "assessmentYear", "2028-29"}, {itr, "provisional", "true"},
		{itr, "slabsFinancialYear", "2026-27"}, {itr, "grossReceipts", "16650.00"},
		{"/api/v1/tax/liability?fy=2026-27", "provisional", "false"}, {"/api/v1/tax/liability?fy=2026-27", "grossReceipts", "8325.00"},
		{"/api/v1/tax/exports/gst3b?period=2027-04", "outwardSupplies.zeroRated.taxableValue", "16650.00"},
		{"/api/v1/tax/exports/gst3b?period=2027-03", "outwardSupplies.zeroRated.taxableValue", "8325.00"},
		{"/api/v1/tax/liability?fy=2028-29", "provisional", "true"},
	})
	is := is.New(t)
	m := e.getExact(liab)
	is.True(strings.Contains(at(m, "warnings.0"), "Provisional: the income-tax slabs for tax year 2027-28 are not enacted yet"))
	p := e.getExact(itr)
	is.True(strings.Contains(at(p, "notes.warnings.0"), "Provisional"))
	for _, path := range []string{"/api/v1/tax/exports/itr4", "/api/v1/compliance/itr4/prefill/export"} {
		is.Equal(e.req("GET", path, nil).Status, http.StatusOK)
	}
	_, hasProvisional := e.getExact(gst)["provisional"]
	is.True(!hasProvisional) // GST does not depend on income-tax slabs

	// Outside the range: 400 naming fy, with the range in the message.
	for _, fy := range []string{"2029-30", "2022-23"} {
		r := e.req("GET", liab+"?fy="+fy, nil)
		is.Equal(r.Status, http.StatusBadRequest)
		is.Equal(r.field(t, "fy"), "financial year "+fy+" is not supported: supported years are 2023-24 to 2028-29")
	}
}
