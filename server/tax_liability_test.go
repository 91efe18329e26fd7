package server_test

import (
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/matryer/is"
)

// liabilityStep is one more payout and the liability the year then shows.
// USD amounts are chosen so the receipts at the sandbox rate (₹83.25) put
// the taxable income exactly on the figure in the comment: the presumptive
// income is 50% of the receipts in whole rupees, rounded up, and is rounded
// to ₹10 per s.288A; the tax figures are worked by hand from the
// year's slabs, not by calling package india.
type liabilityStep struct {
	usd                                 string
	gross, presumptive, taxable         string
	taxOnIncome, rebate, cess, estimate string
}

var liabilityTable = []struct {
	fy    string
	steps []liabilityStep
}{
	{"2023-24", []liabilityStep{
		// TI 7,00,000: 5% of 3–6 L = 15,000 + 10% of 6–7 L = 10,000; the
		// ₹25,000 rebate takes it all (TI ≤ ₹7 L).
		{"16816.82", "1400000.27", "700000.00", "700000.00", "25000.00", "25000.00", "0.00", "0.00"},
		// TI 7,10,000: tax 26,000, but marginal relief caps it at the ₹10,000
		// above ₹7 L: rebate 16,000; cess 4% of 10,000 = 400.
		{"240.24", "1420000.25", "710000.00", "710000.00", "26000.00", "16000.00", "400.00", "10400.00"},
		// TI 15,50,000: 15,000 + 30,000 + 45,000 + 60,000 + 30% of 50,000 =
		// 1,65,000; no rebate; cess 6,600.
		{"20180.18", "3100000.24", "1550000.00", "1550000.00", "165000.00", "0.00", "6600.00", "171600.00"},
	}},
	{"2024-25", []liabilityStep{
		// TI 7,00,000: 5% of 3–7 L = 20,000, all rebated.
		{"16816.82", "1400000.27", "700000.00", "700000.00", "20000.00", "20000.00", "0.00", "0.00"},
		// TI 7,00,010, ₹10 past the rebate edge: tax 20,001; relief leaves
		// ₹10; cess 0.40 → ₹0 (whole rupees); ₹10 due (s.288B).
		{"0.24", "1400020.25", "700010.00", "700010.00", "20001.00", "19991.00", "0.00", "10.00"},
		// TI 10,00,000: 20,000 + 10% of 7–10 L = 30,000; cess 2,000.
		{"7206.96", "1999999.67", "1000000.00", "1000000.00", "50000.00", "0.00", "2000.00", "52000.00"},
	}},
	{"2025-26", []liabilityStep{
		// TI 12,00,000: 5% of 4–8 L + 10% of 8–12 L = 60,000, all rebated.
		{"28828.83", "2400000.10", "1200000.00", "1200000.00", "60000.00", "60000.00", "0.00", "0.00"},
		// TI 12,30,000: 64,500; relief leaves the ₹30,000 above ₹12 L; cess
		// 1,200 (a public AY 2026-27 test file's figures).
		{"720.72", "2460000.04", "1230000.00", "1230000.00", "64500.00", "34500.00", "1200.00", "31200.00"},
		// TI 20,00,000: 20,000 + 40,000 + 60,000 + 80,000; cess 8,000.
		{"18498.50", "4000000.17", "2000000.00", "2000000.00", "200000.00", "0.00", "8000.00", "208000.00"},
	}},
	{"2026-27", []liabilityStep{
		// TI 12,10,000: 60,000 + 15% of 10,000 = 61,500; relief leaves 10,000.
		{"29069.07", "2420000.08", "1210000.00", "1210000.00", "61500.00", "51500.00", "400.00", "10400.00"},
		// TI 24,50,000: 2,00,000 + 25% of 20–24 L = 1,00,000 + 30% of 50,000
		// = 3,15,000; cess 12,600.
		{"29789.79", "4900000.10", "2450000.00", "2450000.00", "315000.00", "0.00", "12600.00", "327600.00"},
	}},
}

// TestTaxLiabilityTable pins GET /tax/liability for known incomes per year.
func TestTaxLiabilityTable(t *testing.T) {
	t.Parallel()
	for _, year := range liabilityTable {
		t.Run(year.fy, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			start, err := strconv.Atoi(year.fy[:4])
			if err != nil {
				t.Fatal(err)
			}
			// Mid-year, so nothing near a boundary decides the bucket.
			e.fixClock(ist(start, time.October, 15, 12, 0))
			for i, s := range year.steps {
				e.pay(s.usd, map[string]any{"invoiceRef": "INV-" + s.usd})
				e.quiesce()
				is := is.New(t)
				m := e.getExact("/api/v1/tax/liability?fy=" + year.fy)
				got := liabilityStep{s.usd, at(m, "grossReceipts"), at(m, "presumptiveIncome"), at(m, "taxableIncome"),
					at(m, "computation.taxOnIncome"), at(m, "computation.rebate87A"), at(m, "computation.cess"), at(m, "estimatedTaxDue")}
				if got != s {
					t.Fatalf("step %d:\n got %+v\nwant %+v", i, got, s)
				}
				is.Equal(at(m, "financialYear"), year.fy)
				is.Equal(at(m, "regime"), "44ADA")
				is.Equal(at(m, "indicative"), "true")
				is.Equal(at(m, "transactionCount"), strconv.Itoa(i+1))
				if est, _ := strconv.ParseFloat(s.estimate, 64); est < 10_000 {
					// s.208: below ₹10,000 no instalment is due at all.
					is.Equal(at(m, "advanceTaxRequired"), "false")
					is.Equal(at(m, "advanceTaxSchedule.0"), "<missing>")
				} else {
					is.Equal(at(m, "advanceTaxRequired"), "true")
					is.Equal(at(m, "advanceTaxSchedule.0.dueDate"), strconv.Itoa(start+1)+"-03-15") // s.211(1)(b): all by 15 March
					is.Equal(at(m, "advanceTaxSchedule.0.percentDue"), "100")
					is.Equal(at(m, "advanceTaxSchedule.0.amount"), s.estimate)
					is.Equal(at(m, "advanceTaxSchedule.0.paid"), "false") // no challans are recorded here
					is.Equal(at(m, "advanceTaxSchedule.0.past"), "false") // 15 October is before 15 March
					is.Equal(at(m, "advanceTaxSchedule.0.shortfall"), s.estimate)
					is.Equal(at(m, "advanceTaxSchedule.1"), "<missing>")
				}
				is.Equal(at(m, "computation.surcharge"), "0.00")
				is.Equal(at(m, "provisional"), "false")
				is.Equal(at(m, "slabsFinancialYear"), year.fy)
				is.Equal(at(m, "presumptiveAvailable"), "true")
				is.Equal(at(m, "returnForm"), "ITR-4")
			}
		})
	}
}

func TestTaxLiabilityInput(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	e.fixClock(ist(2026, time.November, 21, 10, 0))
	cases := []struct {
		name, query string
		status      int
	}{
		{"DefaultIsCurrentFYInIST", "", 200},
		{"Explicit", "?fy=2025-26", 200},
		{"ErrMalformed", "?fy=2025", 400},
		{"ErrWrongSecondYear", "?fy=2025-27", 400},
		{"ErrText", "?fy=abcd-ef", 400},
		{"ErrUnsupportedPast", "?fy=2019-20", 400},
		{"ErrUnsupportedFuture", "?fy=2030-31", 400},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			r := e.req("GET", "/api/v1/tax/liability"+c.query, nil)
			is.Equal(r.Status, c.status)
			if c.status != 200 {
				is.Equal(r.errCode(t), "ERR_VALIDATION")
				is.True(r.field(t, "fy") != "")
				return
			}
			m := r.JSON(t)
			if c.query == "" {
				is.Equal(m["financialYear"], "2026-27")
			}
			is.Equal(m["grossReceipts"], float64(0))
			is.Equal(m["estimatedTaxDue"], float64(0))
			is.True(m["note"].(string) != "")
			is.Equal(m["asOf"], "2026-11-21T04:30:00.000Z") // never refreshed: the request time
		})
	}
	t.Run("ErrScope", func(t *testing.T) {
		is := is.New(t)
		key, _, _ := e.newUser("ledger-only@example.com", false, []string{"ledger:read"})
		r := e.reqAs(key, "GET", "/api/v1/tax/liability", nil)
		is.Equal(r.Status, http.StatusForbidden)
		is.Equal(r.errCode(t), "ERR_INSUFFICIENT_SCOPE")
	})
}
