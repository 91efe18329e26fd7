package server_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/jobs"
)

// TestRealisationDueEvent: two invoices of 14 October 2026 under the LUT,
// the first collected in full, the second partly credited (USD 150.00 of
// ₹12,465.00 still owed). Rule 96A's watch job, run for real through
// River, flags nothing 31 days before the limit; eleven months on it emits
// invoice.realisation_due for the unpaid invoice with its IGST and
// interest, never for the paid one; run again it emits nothing more.
func TestRealisationDueEvent(t *testing.T) {
	t.Parallel()
	e, clock := invoiceEnv(t)
	paid := e.issueInvoice("1500.50", nil)["id"].(string)
	owed := e.issueInvoice("200.00", nil)["id"].(string)
	e.pay("1500.50", map[string]any{"counterpartyCountry": "US", "invoiceId": paid})
	e.quiesce()
	clock.Set(ist(2026, time.October, 20, 11, 0))
	if r := e.req("POST", "/api/v1/invoices/"+owed+"/credit-notes", map[string]any{"date": "2026-10-20", "amount": "50.00",
		"reason": "Discount agreed"}); r.Status != http.StatusCreated {
		t.Fatalf("credit note: %d %s", r.Status, r.Body)
	}
	const events = "/api/v1/events?type=invoice.realisation_due"
	watch := func() {
		t.Helper()
		if err := e.DB.WithTx(context.Background(), jobs.EnqueueRealisationWatch); err != nil {
			t.Fatal(err)
		}
		e.quiesce() // the job committed above has run
	}

	clock.Set(ist(2027, time.September, 13, 11, 0)) // 31 days before the limit
	watch()
	is.New(t).Equal(at(e.getExact(events), "total"), "0")

	clock.Set(ist(2027, time.September, 14, 11, 0)) // eleven months on
	watch()
	watch() // a second run finds it flagged
	t.Run("FlaggedOnce", func(t *testing.T) {
		is := is.New(t)
		l := e.getExact(events)
		is.Equal(at(l, "total"), "1")
		ev := l["items"].([]any)[0]
		is.Equal(at(ev, "data.invoiceId"), owed)
		is.Equal(at(ev, "data.number"), "INV/26-27/00002")
		is.Equal(at(ev, "data.uncollected"), "150.00")
		is.Equal(at(ev, "data.taxableValuePaise"), "1246500")
		is.Equal(at(ev, "data.igst"), "2243.70")
		is.Equal(at(ev, "data.igstPaise"), "224370")
		is.Equal(at(ev, "data.interest"), "379.52")
		is.Equal(at(ev, "data.interestPaise"), "37952")
		is.Equal(at(ev, "data.interestDays"), "343")
		is.Equal(at(ev, "data.limit"), "2027-10-14")
		is.Equal(at(ev, "data.payBy"), "2027-10-29")
		is.Equal(at(ev, "data.version"), "3") // issued, credited, flagged
		a := e.getExact("/api/v1/compliance/audit?action=invoice.realisation_due")
		is.Equal(at(a, "total"), "1")
		is.Equal(at(a, "items.0.actor"), "system:realisation_watch")
	})
	t.Run("Invoices", func(t *testing.T) {
		is := is.New(t)
		v := e.getExact("/api/v1/invoices/" + owed)
		is.Equal(at(v, "realisationFlaggedOn"), "2027-09-14")
		is.Equal(at(v, "version"), "3")
		v = e.getExact("/api/v1/invoices/" + paid)
		is.Equal(at(v, "realisationFlaggedOn"), "null")
		is.Equal(at(v, "version"), "1")
	})
	t.Run("CollectedLateStaysFlagged", func(t *testing.T) {
		// Paid after the flag: the watch stops, the event stands, and the
		// next run emits nothing.
		is := is.New(t)
		e.pay("150.00", map[string]any{"counterpartyCountry": "US", "invoiceId": owed})
		e.quiesce()
		watch()
		is.Equal(at(e.getExact(events), "total"), "1")
		v := e.getExact("/api/v1/invoices/" + owed)
		is.Equal(at(v, "realisation"), "null")
		is.Equal(at(v, "realisationFlaggedOn"), "2027-09-14")
	})
}
