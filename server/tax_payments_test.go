package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

// challan is a POST /tax/payments body; extra fields replace or add.
func challan(fy, kind string, amount any, paidOn, serial string, fromReserve bool) map[string]any {
	return map[string]any{"fy": fy, "kind": kind, "amount": amount, "paidOn": paidOn, "bsrCode": "0510002",
		"challanSerial": serial, "fromReserve": fromReserve}
}

// recordTax posts a challan and requires 201; it returns the payment.
func (e *env) recordTax(body map[string]any) map[string]any {
	e.t.Helper()
	r := e.req("POST", "/api/v1/tax/payments", body)
	if r.Status != http.StatusCreated {
		e.t.Fatalf("POST /tax/payments %v: %d %s", body, r.Status, r.Body)
	}
	return r.JSON(e.t)
}

// exactJSON decodes a body keeping numbers as their exact text.
func exactJSON(t *testing.T, b []byte) map[string]any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return m
}

// ledgerBalanced fails unless every journal transaction sums to zero and
// every account's balance is the sum of its postings.
func (e *env) ledgerBalanced() {
	e.t.Helper()
	var bad, drift int
	if err := e.SQL.QueryRow(`SELECT count(*) FROM (SELECT txn_id FROM ledger_postings GROUP BY txn_id, currency HAVING sum(amount) != 0)`).Scan(&bad); err != nil {
		e.t.Fatal(err)
	}
	if err := e.SQL.QueryRow(`SELECT count(*) FROM ledger_accounts a WHERE a.balance != (SELECT coalesce(sum(amount), 0) FROM ledger_postings p WHERE p.account_id = a.id)`).Scan(&drift); err != nil {
		e.t.Fatal(err)
	}
	if bad != 0 || drift != 0 {
		e.t.Fatalf("ledger: %d unbalanced transactions, %d accounts off their postings", bad, drift)
	}
}

// TestTaxPaymentsLiability walks FY 2025-26 on a fixed clock: a payout with
// 10% sequestered, advance tax before and after 15 March (part from the
// reserve), self-assessment tax after the year, a reversal, and at every
// step the liability, the reserve, the ledger and the ITR-4 export agree.
func TestTaxPaymentsLiability(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	clock := e.fixClock(ist(2025, time.October, 15, 12, 0))
	e.approveKYC(e.UserID)
	if r := e.req("POST", "/api/v1/tax/sequestration/policy", map[string]any{"enabled": true, "rate": 10, "trigger": "on_settlement"}); r.Status != 200 {
		t.Fatalf("policy: %d %s", r.Status, r.Body)
	}
	// ₹24,60,000.04 of receipts: taxable ₹12,30,000, tax due ₹31,200
	// (the FY 2025-26 figures of TestTaxLiabilityTable).
	e.pay("29549.55", map[string]any{"invoiceRef": "INV-TAXPAID"})
	e.quiesce()
	const liability = "/api/v1/tax/liability?fy=2025-26"
	reserve := func() string { return at(e.getExact("/api/v1/tax/sequestration"), "reserveBalance") }
	is.New(t).Equal(reserve(), "246000.00") // 10% of the receipts

	// check asserts the liability's taxes paid, balance, refund and the one
	// instalment (due 15 March 2026), then the ITR-4 export's figures.
	check := func(t *testing.T, advance, self, total, balance, refund, paidBy, shortfall string, paid bool, challans int) {
		t.Helper()
		is := is.New(t)
		m := e.getExact(liability)
		is.Equal(at(m, "estimatedTaxDue"), "31200.00")
		is.Equal(at(m, "taxPaid.advance"), advance)
		is.Equal(at(m, "taxPaid.selfAssessment"), self)
		is.Equal(at(m, "taxPaid.total"), total)
		is.Equal(at(m, "taxPaid.challans"), itoa(challans))
		is.Equal(at(m, "balanceDue"), balance)
		is.Equal(at(m, "refundDue"), refund)
		is.Equal(at(m, "advanceTaxSchedule.0.dueDate"), "2026-03-15")
		is.Equal(at(m, "advanceTaxSchedule.0.paidByDate"), paidBy)
		is.Equal(at(m, "advanceTaxSchedule.0.shortfall"), shortfall)
		is.Equal(at(m, "advanceTaxSchedule.0.paid"), map[bool]string{true: "true", false: "false"}[paid])

		// The export: every taxes-paid line is the liability's, to the rupee.
		r := e.req("GET", "/api/v1/tax/exports/itr4?fy=2025-26", nil)
		is.Equal(r.Status, http.StatusOK)
		doc := exactJSON(t, r.Body)
		itr := doc["ITR"].(map[string]any)["ITR4"]
		rupees := func(s string) string { return wholeRupees(t, s) }
		is.Equal(at(itr, "TaxPaid.TaxesPaid.AdvanceTax"), rupees(advance))
		is.Equal(at(itr, "TaxPaid.TaxesPaid.SelfAssessmentTax"), rupees(self))
		is.Equal(at(itr, "TaxPaid.TaxesPaid.TotalTaxesPaid"), rupees(total))
		is.Equal(at(itr, "TaxPaid.BalTaxPayable"), rupees(balance))
		// payoutd's notes on the file travel in the prefill, not in it.
		is.Equal(at(e.getExact("/api/v1/compliance/itr4/prefill?fy=2025-26"), "notes.exactFigures.refundDue"), refund)
		if challans == 0 {
			is.Equal(at(itr, "ScheduleIT"), "null")
		} else {
			is.Equal(len(itr.(map[string]any)["ScheduleIT"].(map[string]any)["TaxPayment"].([]any)), challans)
			is.Equal(at(itr, "ScheduleIT.TotalTaxPayments"), rupees(total))
		}
	}

	t.Run("NothingPaid", func(t *testing.T) {
		check(t, "0.00", "0.00", "0.00", "31200.00", "0.00", "0.00", "31200.00", false, 0)
	})

	clock.Set(ist(2026, time.March, 20, 12, 0))
	var drawn map[string]any
	t.Run("FromReserveBeforeDueDate", func(t *testing.T) {
		is := is.New(t)
		drawn = e.recordTax(challan("2025-26", "advance", "20000.00", "2025-12-15", "00101", true))
		is.Equal(drawn["status"], "recorded")
		is.Equal(drawn["fromReserve"], true)
		is.Equal(drawn["reversedAt"], nil)
		is.Equal(reserve(), "226000.00")
		e.ledgerBalanced()
		// Paid on 20 March, the rest is 11,200 short of 15 March: 1% interest (s.234C).
		// The balance, ₹11,312, is payable rounded to ₹10 (s.288B).
		check(t, "20000.00", "0.00", "20000.00", "11310.00", "0.00", "20000.00", "11200.00", false, 1)
	})

	t.Run("AfterDueDateLeavesShortfall", func(t *testing.T) {
		// Paid on 16 March: advance tax of the year, but late for 15 March.
		e.recordTax(challan("2025-26", "advance", json.Number("11200"), "2026-03-16", "00102", false)) // a JSON number
		is.New(t).Equal(reserve(), "226000.00")                                                        // not from the reserve
		check(t, "31200.00", "0.00", "31200.00", "110.00", "0.00", "20000.00", "11200.00", false, 2)   // the interest remains, ₹112 payable as ₹110
	})

	clock.Set(ist(2026, time.July, 1, 12, 0))
	var extra map[string]any
	t.Run("SixRupeesOverIsRefundOfTen", func(t *testing.T) {
		// ₹118 against the ₹112 of interest: ₹6 over, refunded as ₹10 (s.288B).
		extra = e.recordTax(challan("2025-26", "self_assessment", "118.00", "2026-06-30", "00103", false))
		check(t, "31200.00", "118.00", "31318.00", "0.00", "10.00", "20000.00", "11200.00", false, 3)
	})

	t.Run("ReverseRestoresReserveAndBalance", func(t *testing.T) {
		is := is.New(t)
		r := e.req("DELETE", "/api/v1/tax/payments/"+extra["id"].(string), nil)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(r.JSON(t)["status"], "reversed")

		r = e.req("DELETE", "/api/v1/tax/payments/"+drawn["id"].(string), nil)
		is.Equal(r.Status, http.StatusOK)
		rev := r.JSON(t)
		is.Equal(rev["status"], "reversed")
		is.True(rev["reversedAt"] != nil)
		is.Equal(reserve(), "246000.00") // exactly as before the draw
		e.ledgerBalanced()
		// Balance paid today (1 July): ₹312 for 15 March (s.234C) and, with
		// under 90% paid as advance tax, 1% a month for April to July on
		// ₹20,000 (s.234B): ₹800.
		check(t, "11200.00", "0.00", "11200.00", "21110.00", "0.00", "0.00", "31200.00", false, 1)

		again := e.req("DELETE", "/api/v1/tax/payments/"+drawn["id"].(string), nil)
		is.Equal(again.Status, http.StatusConflict)
		is.Equal(again.errCode(t), "ERR_INVALID_STATE")
		is.Equal(reserve(), "246000.00")
	})

	t.Run("OnTimeInFull", func(t *testing.T) {
		e.recordTax(challan("2025-26", "advance", "20000", "2026-03-15", "00104", true)) // on the due date
		check(t, "31200.00", "0.00", "31200.00", "110.00", "0.00", "20000.00", "11200.00", false, 2)
		e.recordTax(challan("2025-26", "advance", "11200.00", "2026-03-01", "00105", true))
		check(t, "42400.00", "0.00", "42400.00", "0.00", "11200.00", "31200.00", "0.00", true, 3)
		is.New(t).Equal(reserve(), "214800.00")
		e.ledgerBalanced()
	})

	t.Run("ErrMoreThanReserve", func(t *testing.T) {
		is := is.New(t)
		var before int
		is.NoErr(e.SQL.QueryRow("SELECT count(*) FROM tax_payments").Scan(&before))
		r := e.req("POST", "/api/v1/tax/payments", challan("2025-26", "advance", "214801.00", "2026-03-02", "00106", true))
		is.Equal(r.Status, http.StatusBadRequest)
		is.Equal(r.errCode(t), "ERR_INSUFFICIENT_FUNDS")
		var after int
		is.NoErr(e.SQL.QueryRow("SELECT count(*) FROM tax_payments").Scan(&after))
		is.Equal(after, before)
		is.Equal(reserve(), "214800.00")
	})

	t.Run("ListGetEventsAudit", func(t *testing.T) {
		is := is.New(t)
		l := e.getExact("/api/v1/tax/payments?fy=2025-26&limit=2")
		is.Equal(at(l, "total"), "5") // reversed entries stay listed
		is.Equal(at(l, "limit"), "2")
		is.Equal(at(l, "items.0.paidOn"), "2026-06-30") // newest challan first
		is.Equal(at(l, "items.0.status"), "reversed")
		is.Equal(at(e.getExact("/api/v1/tax/payments?fy=2024-25"), "total"), "0")
		is.Equal(at(e.getExact("/api/v1/tax/payments"), "total"), "5")
		g := e.getExact("/api/v1/tax/payments/" + drawn["id"].(string))
		is.Equal(at(g, "amount"), "20000.00")
		is.Equal(at(g, "bsrCode"), "0510002")
		is.Equal(at(g, "challanSerial"), "00101")

		var recorded, reversed, audits int
		is.NoErr(e.SQL.QueryRow("SELECT count(*) FROM events WHERE user_id = ? AND type = 'tax.payment.recorded'", e.UserID).Scan(&recorded))
		is.NoErr(e.SQL.QueryRow("SELECT count(*) FROM events WHERE user_id = ? AND type = 'tax.payment.reversed'", e.UserID).Scan(&reversed))
		is.NoErr(e.SQL.QueryRow("SELECT count(*) FROM audit_log WHERE resource_id = ?", drawn["id"]).Scan(&audits))
		is.Equal(recorded, 5)
		is.Equal(reversed, 2)
		is.Equal(audits, 2) // recorded and reversed, both kept
		ev := e.getExact("/api/v1/events?type=tax.payment.reversed")
		is.Equal(at(ev, "items.1.data.taxPaymentId"), drawn["id"])
		is.Equal(at(ev, "items.1.data.amount"), "20000.00")
	})

	t.Run("ErrOtherUsersPayment", func(t *testing.T) {
		is := is.New(t)
		other, _, _ := e.newUser("other-tax@example.com", false, []string{"tax:read", "tax:write"})
		id := drawn["id"].(string)
		is.Equal(e.reqAs(other, "GET", "/api/v1/tax/payments/"+id, nil).Status, http.StatusNotFound)
		r := e.reqAs(other, "DELETE", "/api/v1/tax/payments/"+id, nil)
		is.Equal(r.Status, http.StatusNotFound)
		is.Equal(r.errCode(t), "ERR_NOT_FOUND")
		is.Equal(at(exactJSON(t, e.reqAs(other, "GET", "/api/v1/tax/payments", nil).Body), "total"), "0")
	})

	t.Run("ErrScope", func(t *testing.T) {
		is := is.New(t)
		readOnly, _, _ := e.newUser("freelancer@example.com", false, []string{"tax:read"})
		r := e.reqAs(readOnly, "POST", "/api/v1/tax/payments", challan("2025-26", "advance", "1.00", "2026-03-02", "00107", false))
		is.Equal(r.Status, http.StatusForbidden)
		is.Equal(e.reqAs(readOnly, "DELETE", "/api/v1/tax/payments/"+drawn["id"].(string), nil).Status, http.StatusForbidden)
		is.Equal(e.reqAs(readOnly, "GET", "/api/v1/tax/payments", nil).Status, http.StatusOK)
	})
}

// wholeRupees is an exact non-negative "12345.67" rounded half-up to the rupee.
func wholeRupees(t *testing.T, s string) string {
	t.Helper()
	whole, frac, _ := strings.Cut(s, ".")
	r, err1 := strconv.ParseInt(whole, 10, 64)
	p, err2 := strconv.ParseInt(frac, 10, 64)
	if err1 != nil || err2 != nil || len(frac) != 2 {
		t.Fatalf("amount %q is not rupees with two decimals", s)
	}
	if p >= 50 {
		r++
	}
	return strconv.FormatInt(r, 10)
}

// TestTaxPaymentIdempotent: a retried POST with the same Idempotency-Key
// answers the first response and records one challan.
func TestTaxPaymentIdempotent(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	e.fixClock(ist(2026, time.March, 20, 12, 0))
	body := challan("2025-26", "advance", "5000.00", "2026-03-10", "44444", false)
	key := "7b0d2c4e-8f1a-4c3b-9e5d-6a7b8c9d0e1f"
	first := e.req("POST", "/api/v1/tax/payments", body, "Idempotency-Key", key)
	is.Equal(first.Status, http.StatusCreated)
	second := e.req("POST", "/api/v1/tax/payments", body, "Idempotency-Key", key)
	is.Equal(second.Status, http.StatusCreated)
	is.Equal(second.Header.Get("Idempotent-Replayed"), "true")
	is.Equal(string(second.Body), string(first.Body))
	// Without a key, the same challan again is a conflict, not a second entry.
	dup := e.req("POST", "/api/v1/tax/payments", body)
	is.Equal(dup.Status, http.StatusConflict)
	is.Equal(dup.errCode(t), "ERR_CONFLICT")
	var n int
	is.NoErr(e.SQL.QueryRow("SELECT count(*) FROM tax_payments").Scan(&n))
	is.Equal(n, 1)
}

// TestTaxPaymentValidation: each rule broken alone is a 400 naming its
// field, and nothing is written. The clock is 20 March 2026 (FY 2025-26).
func TestTaxPaymentValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	e.fixClock(ist(2026, time.March, 20, 12, 0))
	good := func() map[string]any { return challan("2025-26", "advance", "1000.00", "2026-03-10", "12345", false) }
	with := func(k string, v any) map[string]any {
		b := good()
		if v == nil {
			delete(b, k)
		} else {
			b[k] = v
		}
		return b
	}
	cases := []struct {
		name, field string
		body        map[string]any
	}{
		{"BSRCodeSix", "bsrCode", with("bsrCode", "051000")},
		{"BSRCodeEight", "bsrCode", with("bsrCode", "05100020")},
		{"BSRCodeLetters", "bsrCode", with("bsrCode", "05100A2")},
		{"BSRCodeMissing", "bsrCode", with("bsrCode", nil)},
		{"SerialFour", "challanSerial", with("challanSerial", "1234")},
		{"SerialSix", "challanSerial", with("challanSerial", "123456")},
		{"SerialNumber", "challanSerial", with("challanSerial", 12345)},
		{"KindUnknown", "kind", with("kind", "tds")},
		{"KindUpperCase", "kind", with("kind", "ADVANCE")},
		{"KindMissing", "kind", with("kind", nil)},
		{"AmountZero", "amount", with("amount", "0")},
		{"AmountNegative", "amount", with("amount", "-5.00")},
		{"AmountThreeDecimals", "amount", with("amount", "1000.001")},
		// Challans are whole rupees: ₹30,000.50 cannot have been paid.
		{"AmountWithPaise", "amount", with("amount", "30000.50")},
		{"AmountNumberWithPaise", "amount", with("amount", 30000.5)},
		{"AmountExponent", "amount", with("amount", "1e3")},
		{"AmountText", "amount", with("amount", "ten")},
		{"AmountMissing", "amount", with("amount", nil)},
		{"PaidOnFuture", "paidOn", with("paidOn", "2026-03-21")},
		{"PaidOnBeforeFY", "paidOn", with("paidOn", "2025-03-31")},
		{"PaidOnNotADate", "paidOn", with("paidOn", "2026-02-30")},
		{"PaidOnTimestamp", "paidOn", with("paidOn", "2026-03-10T00:00:00Z")},
		{"AdvanceAfterFY", "paidOn", with("fy", "2024-25")}, // 10 March 2026 is after FY 2024-25
		{"SelfAssessmentInFY", "paidOn", with("kind", "self_assessment")},
		{"FYUnsupported", "fy", with("fy", "2019-20")},
		{"FYMalformed", "fy", with("fy", "2025-27")},
		{"FYMissing", "fy", with("fy", nil)},
		{"FromReserveString", "fromReserve", with("fromReserve", "yes")},
		{"NoteTooLong", "note", with("note", string(bytes.Repeat([]byte("n"), 513)))},
		{"UnknownField", "challanNo", with("challanNo", "1")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			r := e.req("POST", "/api/v1/tax/payments", c.body)
			is.Equal(r.Status, http.StatusBadRequest)
			is.Equal(r.errCode(t), "ERR_VALIDATION")
			fields := r.JSON(t)["error"].(map[string]any)["fields"].(map[string]any)
			is.True(fields[c.field] != nil) // names the field
			is.Equal(len(fields), 1)        // and only it
		})
	}
	t.Run("OK", func(t *testing.T) {
		is := is.New(t)
		r := e.req("POST", "/api/v1/tax/payments", with("note", "Q4 advance tax"))
		is.Equal(r.Status, http.StatusCreated)
		m := exactJSON(t, r.Body)
		is.Equal(at(m, "amount"), "1000.00")
		is.Equal(at(m, "fy"), "2025-26")
		is.Equal(at(m, "note"), "Q4 advance tax")
	})
	var n int
	is.New(t).NoErr(e.SQL.QueryRow("SELECT count(*) FROM tax_payments").Scan(&n))
	is.New(t).Equal(n, 1) // only the valid one
}
