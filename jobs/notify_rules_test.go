package jobs

import (
	"encoding/json"
	"testing"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/india"
)

func TestAdvanceTaxNotice(t *testing.T) {
	march := []india.InstalmentPaid{{Instalment: india.Instalment{DueDate: "2027-03-15", PercentDue: 100, Amount: 2_06_580_00},
		PaidByDate: 50_000_00, Shortfall: 1_56_580_00}}
	paid := []india.InstalmentPaid{{Instalment: india.Instalment{DueDate: "2027-03-15", PercentDue: 100, Amount: 2_06_580_00},
		PaidByDate: 2_06_580_00}}
	for _, c := range []struct {
		name, today string
		ins         []india.InstalmentPaid
		want        bool
	}{
		{"EightDaysBefore", "2027-03-07", march, false},
		{"SevenDaysBefore", "2027-03-08", march, true},
		{"OnTheDay", "2027-03-15", march, true},
		{"PaidInFull", "2027-03-10", paid, false},
		{"NoSchedule", "2027-03-10", nil, false},
		{"Past", "2027-03-16", []india.InstalmentPaid{{Instalment: india.Instalment{DueDate: "2027-03-15", Past: true}, Shortfall: 1}}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			n, ok := advanceTaxNotice(c.today, c.ins)
			is.Equal(ok, c.want)
			if ok {
				is.Equal(n.Occasion, "advance_tax:2027-03-15")
				is.Equal(n.Title, "Advance tax of ₹1,56,580.00 is due by 15 Mar 2027")
			}
		})
	}
}

func TestInstalmentNear(t *testing.T) {
	for today, want := range map[string]bool{"2026-06-08": true, "2026-06-07": false, "2026-09-15": true, "2026-12-10": true,
		"2027-03-01": false, "2027-03-08": true, "2026-07-15": false, "2026-06-16": false} {
		if got := instalmentNear(today); got != want {
			t.Errorf("instalmentNear(%s) = %v, want %v", today, got, want)
		}
	}
}

func TestLUTNotice(t *testing.T) {
	fy26, _ := india.ParseFY("2026-27")
	fy27, _ := india.ParseFY("2027-28")
	this := india.LUTFurnished("AD270426000001X", fy26, "2026-04-20")
	next := india.LUTFurnished("AD270327000002Y", fy27, "2027-03-10")
	for _, c := range []struct {
		name, today string
		luts        india.LUTs
		want        bool
	}{
		{"ThisYearsOnly", "2027-03-05", india.LUTs{this}, true},
		{"NextYearsFurnished", "2027-03-12", india.LUTs{this, next}, false},
		{"None", "2027-03-05", nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			n, ok := lutNotice(c.today, c.luts)
			is.Equal(ok, c.want)
			if ok {
				is.Equal(n.Occasion, "lut_expiring:2026-27")
				is.Equal(n.Title, "Your LUT ends on 31 Mar 2027")
			}
		})
	}
	is := is.New(t)
	is.True(lutEndNear("2027-03-01"))
	is.True(!lutEndNear("2027-02-27"))
}

// Every event row renders the words a user reads from the event's data,
// amounts exact; a cancelled payout makes no notice.
func TestEventNotices(t *testing.T) {
	data := func(s string) noticeData {
		var d noticeData
		if err := json.Unmarshal([]byte(s), &d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	rows := map[string]eventNotice{}
	for _, n := range eventNotices {
		rows[n.event] = n
	}
	for _, c := range []struct {
		event, data, title, body, link string
	}{
		{"payout.completed", `{"paymentId":"pay_1","amountMinor":9007199254740993,"currency":"USD","amountInrPaise":123456789,"firaId":"fira_1"}`,
			"Payout of USD 90,071,992,547,409.93 completed", "₹12,34,567.89 was credited to your books. Its FIRA is ready to download.", "/console/payouts/pay_1"},
		{"payout.failed", `{"paymentId":"pay_2","amountMinor":45013,"currency":"USD","failedReason":"SETTLEMENT_REJECTED: refused"}`,
			"Payout of USD 450.13 failed", "SETTLEMENT_REJECTED: refused. The reserved funds are back in the vault; a retry can send it again.", "/console/payouts/pay_2"},
		{"deposit.received", `{"vaultId":"vlt_1","amountMinor":500,"currency":"EUR","from":"GABC","memo":"","transactionHash":"ab12"}`,
			"Deposit of EUR 5.00 received", "From GABC, transaction ab12.", "/console/vaults/vlt_1"},
		{"payout.needs_attention", `{"paymentId":"pay_3","amountMinor":100,"currency":"INR","attention":"JOB_FAILED: stopped"}`,
			"Payout of ₹1.00 has stopped and needs a person", "JOB_FAILED: stopped", "/console/payouts/pay_3"},
		{"payout.manual_review", `{"paymentId":"pay_4","amountMinor":250000,"currency":"JPY","reviewReason":"amount over the review threshold"}`,
			"Payout of JPY 250,000 is held for review", "amount over the review threshold. Nothing is sent until the review approves it.", "/console/payouts/pay_4"},
		{"payout.manual_review", `{"paymentId":"pay_5","amountMinor":100,"currency":"EUR","reviewReason":""}`,
			"Payout of EUR 1.00 is held for review", "Nothing is sent until the review approves it.", "/console/payouts/pay_5"},
		{"payout.unknown", `{"paymentId":"pay_6","amountMinor":-5,"currency":"INR"}`, "Payout of −₹0.05: the network has not answered",
			"payoutd keeps asking and the funds stay reserved until the network says whether it was paid.", "/console/payouts/pay_6"},
		{"payout.completed", `{"paymentId":"pay_7","amountMinor":100,"currency":"GBP","amountInrPaise":null,"firaId":""}`,
			"Payout of GBP 1.00 completed", "", "/console/payouts/pay_7"},
		{"deposit.received", `{"vaultId":"vlt_2","amountMinor":1,"currency":"USD","from":"","memo":"inv 7","transactionHash":""}`,
			"Deposit of USD 0.01 received", "Received, memo “inv 7”.", "/console/vaults/vlt_2"},
		{"vault.quarantined", `{"vaultId":"vlt_3","description":"The chain shows a payment payoutd did not sign."}`,
			"A vault was quarantined: it signs nothing until it is released", "The chain shows a payment payoutd did not sign. Deposits are still booked.", "/console/vaults/vlt_3"},
	} {
		t.Run(c.event, func(t *testing.T) {
			is := is.New(t)
			is.Equal(rows[c.event].render(data(c.data)), noticeText{c.title, c.body, c.link})
		})
	}
	is := is.New(t)
	is.True(rows["payout.failed"].skip(data(`{"failedReason":"CANCELLED: cancelled before it was confirmed"}`)))
	kinds := map[string]bool{}
	for _, k := range NoticeKinds {
		kinds[k.Kind] = true
	}
	for _, n := range eventNotices {
		is.True(kinds[n.kind]) // every row's kind can be turned off in Settings
	}
}

// Rule 96A's notice comes from the watch's event, in its words.
func TestRealisationNotice(t *testing.T) {
	is := is.New(t)
	var row eventNotice
	for _, n := range eventNotices {
		if n.event == "invoice.realisation_due" {
			row = n
		}
	}
	data := noticeData{InvoiceID: "inv_1", Number: "INV/26-27/00001", Limit: "2027-05-01", Message: "Invoice INV/26-27/00001, exported under a LUT, is not fully paid."}
	is.Equal(row.render(data), noticeText{"Invoice INV/26-27/00001 must be paid by 1 May 2027 (rule 96A)",
		"Invoice INV/26-27/00001, exported under a LUT, is not fully paid.", "/console/invoices/inv_1"})
}
