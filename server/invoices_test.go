package server_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

// invoiceEnv is a registered Karnataka exporter (GSTIN from the PAN, name
// and address on the profile, registered from 1 April 2025) with a LUT for
// 2026-27 furnished on 1 April 2026, on 14 October 2026.
func invoiceEnv(t *testing.T) (*env, *testClock) {
	e := newEnv(t, func(o *envOpts) { o.limits = map[string]int{"initiate": 1000, "confirm": 1000} })
	e.approveKYC(e.UserID)
	clock := e.fixClock(ist(2026, time.October, 14, 11, 0))
	e.setTaxProfile("", "")
	if r := e.req("PATCH", "/api/v1/profile", map[string]any{"name": "Asha Rao", "address": "12 MG Road, Bengaluru 560038",
		"gstRegisteredFrom": "2025-04-01"}); r.Status != http.StatusOK {
		t.Fatalf("PATCH /profile: %d %s", r.Status, r.Body)
	}
	if r := e.req("POST", "/api/v1/tax/luts", map[string]any{"arn": "AD2704260009876", "fy": "2026-27", "furnishedOn": "2026-04-01"}); r.Status != http.StatusCreated {
		t.Fatalf("POST /tax/luts: %d %s", r.Status, r.Body)
	}
	return e, clock
}

func (e *env) issueInvoice(amount string, extra map[string]any) map[string]any {
	e.t.Helper()
	body := map[string]any{"date": "2026-10-14", "currency": "USD", "inrRate": "83.10",
		"lines":     []map[string]any{{"description": "Backend development", "amount": amount}},
		"recipient": map[string]any{"name": "Acme Inc", "address": "1 Market St, San Francisco CA 94105", "country": "US"}}
	for k, v := range extra {
		body[k] = v
	}
	r := e.req("POST", "/api/v1/invoices", body)
	if r.Status != http.StatusCreated {
		e.t.Fatalf("POST /invoices: %d %s", r.Status, r.Body)
	}
	return r.JSON(e.t)
}

// TestInvoices: two invoices under the LUT (consecutive numbers, INR at the
// rule 34 rate given), the first collected by a payout naming it, the
// second partly credited; a third receipt carries only an invoiceRef. GSTR-1
// for October lists each export invoice once (the collecting receipt is not
// another supply) with table 6A less the credit note equal to GSTR-3B
// 3.1(b). Eleven months on, rule 96A flags the unpaid invoice with its IGST
// and interest, never the paid one.
func TestInvoices(t *testing.T) {
	t.Parallel()
	e, clock := invoiceEnv(t)
	first := e.issueInvoice("1500.50", nil)
	second := e.issueInvoice("200.00", map[string]any{"lines": []map[string]any{{"description": "Code review", "sac": "998313", "amount": "200.00"}}})
	is := is.New(t)
	is.Equal(first["number"], "INV/26-27/00001")
	is.Equal(second["number"], "INV/26-27/00002")
	is.Equal(first["lutArn"], "AD2704260009876")
	is.Equal(first["taxableValuePaise"], 12469155.0) // USD 1,500.50 × ₹83.10
	is.Equal(first["igstPaise"], 0.0)
	is.Equal(first["placeOfSupply"], "Outside India (96: other country)")
	is.True(strings.Contains(first["endorsement"].(string), "WITHOUT PAYMENT OF INTEGRATED TAX"))
	id1, id2 := first["id"].(string), second["id"].(string)

	t.Run("PDF", func(t *testing.T) {
		is := is.New(t)
		r := e.req("GET", "/api/v1/invoices/"+id1+"/pdf", nil)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(r.Header.Get("Content-Type"), "application/pdf")
		is.True(bytes.HasPrefix(r.Body, []byte("%PDF")))
	})

	pay := e.pay("1500.50", map[string]any{"counterpartyCountry": "US", "invoiceId": id1})
	e.pay("100.00", map[string]any{"counterpartyCountry": "US", "invoiceRef": "EXT-7"}) // ₹8,325.00, its own invoice
	e.quiesce()
	t.Run("Collected", func(t *testing.T) {
		is := is.New(t)
		v := e.getExact("/api/v1/invoices/" + id1)
		is.Equal(at(v, "collections.0.paymentId"), pay)
		is.Equal(at(v, "collected"), "1500.50")
		is.Equal(at(v, "collectedInr"), "124916.63") // settled at ₹83.25
		is.True(strings.HasPrefix(at(v, "collections.0.firaId"), "fira_"))
		is.Equal(at(v, "realisation"), "null")
		p := e.getExact("/api/v1/payments/payouts/" + pay)
		is.Equal(at(p, "invoiceRef"), "INV/26-27/00001")
	})

	clock.Set(ist(2026, time.October, 20, 11, 0))
	r := e.req("POST", "/api/v1/invoices/"+id2+"/credit-notes", map[string]any{"date": "2026-10-20", "amount": "50.00", "reason": "Discount agreed"})
	if r.Status != http.StatusCreated {
		t.Fatalf("credit note: %d %s", r.Status, r.Body)
	}
	is.Equal(r.JSON(t)["number"], "CN/26-27/00001")

	const gstr1, gst3b = "/api/v1/tax/exports/gstr1?period=2026-10", "/api/v1/tax/exports/gst3b?period=2026-10"
	t.Run("GSTR1AgreesWithGSTR3B", func(t *testing.T) {
		is := is.New(t)
		g := e.getExact(gstr1)
		is.Equal(at(g, "fp"), "102026")
		is.Equal(at(g, "version"), "GST3.0.4")
		is.Equal(at(g, "exp.0.exp_typ"), "WOPAY")
		inv := g["exp"].([]any)[0].(map[string]any)["inv"].([]any)
		var nums []string
		for _, i := range inv {
			nums = append(nums, at(i, "inum"))
		}
		is.Equal(nums, []string{"INV/26-27/00001", "INV/26-27/00002", "EXT-7"}) // the collecting payout adds none
		is.Equal(at(inv[0], "idt"), "14-10-2026")
		is.Equal(at(inv[0], "itms.0.txval"), "124691.55")
		is.Equal(at(inv[0], "itms.0.iamt"), "0.00")
		is.Equal(at(g, "cdnur.0.typ"), "EXPWOP")
		is.Equal(at(g, "cdnur.0.nt_num"), "CN/26-27/00001")
		is.Equal(at(g, "cdnur.0.val"), "4155.00")
		// 6A: 1,24,691.55 + 16,620.00 + 8,325.00; less the credit note's 4,155.00.
		is.Equal(at(g, "payoutd.table6A.taxableValue"), "149636.55")
		is.Equal(at(g, "payoutd.net.taxableValue"), "145481.55")
		b := e.getExact(gst3b)
		is.Equal(at(b, "outwardSupplies.zeroRated.taxableValue"), at(g, "payoutd.net.taxableValue"))
		is.Equal(at(g, "payoutd.gstr3b31b.taxableValue"), "145481.55")
		is.Equal(at(g, "payoutd.agreesWithGstr3b"), "true")
	})

	clock.Set(ist(2027, time.September, 14, 11, 0)) // eleven months on
	t.Run("Rule96AWatch", func(t *testing.T) {
		is := is.New(t)
		s := e.getExact("/api/v1/compliance/gst/summary?fy=2026-27")
		items := s["realisationDue"].([]any)
		is.Equal(len(items), 1) // the paid invoice is never flagged
		is.Equal(at(items[0], "invoiceId"), id2)
		// USD 150.00 still owed of ₹12,465.00 taxable: IGST ₹2,243.70, and
		// 18% a year from 21 November 2026 to 29 October 2027 (343 days): ₹379.52.
		is.Equal(at(items[0], "realisation.limit"), "2027-10-14")
		is.Equal(at(items[0], "realisation.payBy"), "2027-10-29")
		is.Equal(at(items[0], "realisation.igst"), "2243.70")
		is.Equal(at(items[0], "realisation.interest"), "379.52")
		is.Equal(at(items[0], "realisation.interestDays"), "343")
		is.True(strings.Contains(at(s, "warnings.0"), "INV/26-27/00002"))
		v := e.getExact("/api/v1/invoices/" + id2)
		is.Equal(at(v, "realisation.due"), "true")
	})
	t.Run("NotYetWatched", func(t *testing.T) {
		clock.Set(ist(2027, time.September, 13, 11, 0)) // 31 days before the limit
		s := e.getExact("/api/v1/compliance/gst/summary?fy=2026-27")
		is.New(t).Equal(len(s["realisationDue"].([]any)), 0)
	})
}
