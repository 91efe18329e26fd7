package server_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/store"
)

func TestLedgerSettlementAndEntries(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.approveKYC(e.UserID)
	acct := e.settleAccount()
	t.Run("SettlementCreditsINR", func(t *testing.T) {
		is := is.New(t)
		id := e.pay("100.00", map[string]any{"counterpartyCountry": "US", "invoiceRef": "INV-1"})
		e.waitStatus(id, store.StatusCompleted, 5*time.Second)
		b := e.req("GET", "/api/v1/ledger/accounts/"+acct+"/balance", nil).JSON(t)
		is.Equal(b["settled"], float64(832500)) // 100 USD × 83.25 = ₹8,325.00
		is.Equal(b["reserved"], float64(0))
		is.Equal(b["currency"], "INR")
		is.Equal(b["type"], "SETTLED")
		r := e.req("GET", "/api/v1/ledger/accounts/"+acct+"/entries", nil).JSON(t)
		entries := r["entries"].([]any)
		is.Equal(len(entries), 1)
		en := entries[0].(map[string]any)
		is.Equal(en["type"], "CREDIT")
		is.Equal(en["amount"], float64(832500))
		is.Equal(en["paymentId"], id)
		is.True(en["reconciledAt"] != nil) // it had an invoice ref
		rec := e.req("GET", "/api/v1/ledger/reconciliation/"+id, nil).JSON(t)
		is.Equal(rec["status"], "RECONCILED")
		is.Equal(rec["invoiceRef"], "INV-1")
		is.Equal(rec["ledgerEntryId"], en["id"])
	})
	t.Run("PendingThenResolved", func(t *testing.T) {
		is := is.New(t)
		id := e.pay("10.00", nil)
		e.waitStatus(id, store.StatusCompleted, 5*time.Second)
		rec := e.req("GET", "/api/v1/ledger/reconciliation/"+id, nil).JSON(t)
		is.Equal(rec["status"], "PENDING_RECONCILIATION")
		is.Equal(rec["reason"], "NO_INVOICE_REF")
		is.Equal(rec["invoiceRef"], nil)
		is.True(rec["createdAt"] != nil)
		r := e.req("POST", "/api/v1/ledger/reconciliation/"+id+"/resolve", map[string]any{"note": strings.Repeat("n", 513)})
		is.Equal(r.Status, http.StatusBadRequest)
		is.True(r.field(t, "note") != "")
		r = e.req("POST", "/api/v1/ledger/reconciliation/"+id+"/resolve", map[string]any{"invoiceRef": "INV-9", "note": strings.Repeat("n", 512), "markAsException": true})
		is.Equal(r.Status, http.StatusOK)
		m := r.JSON(t)
		is.Equal(m["status"], "RECONCILED")
		is.Equal(m["resolvedBy"], "manual")
		is.True(m["resolvedAt"] != nil)
		r = e.req("POST", "/api/v1/ledger/reconciliation/"+id+"/resolve", map[string]any{})
		is.Equal(r.Status, http.StatusConflict)
		is.Equal(r.errCode(t), "ERR_INVALID_STATE")
	})
	t.Run("ErrOtherUsersAccount", func(t *testing.T) {
		is := is.New(t)
		other, _, _ := e.newUser("ledger-other@example.com", false, []string{"ledger:read"})
		r := e.reqAs(other, "GET", "/api/v1/ledger/accounts/"+acct+"/balance", nil)
		is.Equal(r.Status, http.StatusNotFound)
		r = e.reqAs(other, "GET", "/api/v1/ledger/accounts/"+acct+"/entries", nil)
		is.Equal(r.Status, http.StatusNotFound)
	})
}

func TestLedgerEntriesPagingAndBounds(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.limits = map[string]int{"initiate": 1000, "confirm": 1000} })
	acct := e.settleAccount()
	var ids []string
	for i := 0; i < 5; i++ {
		ids = append(ids, e.pay("1.00", nil))
	}
	for _, id := range ids {
		e.waitStatus(id, store.StatusCompleted, 5*time.Second)
	}
	rows, err := e.SQL.Query(`SELECT lp.created_at FROM ledger_postings lp WHERE account_id = ? ORDER BY created_at`, acct)
	if err != nil {
		t.Fatal(err)
	}
	var times []time.Time
	for rows.Next() {
		var v int64
		rows.Scan(&v)
		times = append(times, time.UnixMilli(v).UTC())
	}
	rows.Close()
	first, last := times[0].Format("2006-01-02T15:04:05.000Z"), times[len(times)-1].Format("2006-01-02T15:04:05.000Z")
	cases := []struct {
		name, query string
		status      int
		n           int
		limit       float64
	}{
		{"All", "", 200, 5, 25},
		{"LimitClamp", "?limit=500", 200, 5, 100},
		{"Page", "?limit=2&page=3", 200, 1, 2},
		{"EmptyPage", "?limit=2&page=4", 200, 0, 2},
		{"FromInclusive", "?from=" + last, 200, countFrom(times, times[len(times)-1]), 25},
		{"ToInclusive", "?to=" + first, 200, countTo(times, times[0]), 25},
		{"DateBounds", "?from=" + times[0].Format("2006-01-02") + "&to=" + times[0].Format("2006-01-02"), 200, 5, 25},
		{"FutureFrom", "?from=2999-01-01", 200, 0, 25},
		{"ErrBadFrom", "?from=yesterday", 400, 0, 0},
		{"ErrToBeforeFrom", "?from=2026-02-01&to=2026-01-01", 400, 0, 0},
		{"ErrLimitZero", "?limit=0", 400, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			r := e.req("GET", "/api/v1/ledger/accounts/"+acct+"/entries"+c.query, nil)
			is.Equal(r.Status, c.status)
			if c.status != 200 {
				is.Equal(r.errCode(t), "ERR_VALIDATION")
				return
			}
			m := r.JSON(t)
			is.Equal(len(m["entries"].([]any)), c.n)
			is.Equal(m["limit"], c.limit)
		})
	}
}

func countFrom(ts []time.Time, from time.Time) int {
	n := 0
	for _, t := range ts {
		if !t.Before(from) {
			n++
		}
	}
	return n
}

func countTo(ts []time.Time, to time.Time) int {
	n := 0
	for _, t := range ts {
		if !t.After(to) {
			n++
		}
	}
	return n
}

func TestSequestration(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	t.Run("PolicyRules", func(t *testing.T) {
		cases := []struct {
			name  string
			body  map[string]any
			field string
		}{
			{"MissingEnabled", map[string]any{"rate": 10, "trigger": "on_settlement"}, "enabled"},
			{"MissingRate", map[string]any{"enabled": true, "trigger": "on_settlement"}, "rate"},
			{"RateTooHigh", map[string]any{"enabled": true, "rate": 100.01, "trigger": "on_settlement"}, "rate"},
			{"RateNegative", map[string]any{"enabled": true, "rate": -1, "trigger": "on_settlement"}, "rate"},
			{"RateThreeDecimals", map[string]any{"enabled": true, "rate": 1.234, "trigger": "on_settlement"}, "rate"},
			{"BadTrigger", map[string]any{"enabled": true, "rate": 10, "trigger": "monthly"}, "trigger"},
			{"MissingTrigger", map[string]any{"enabled": true, "rate": 10}, "trigger"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				is := is.New(t)
				r := e.req("POST", "/api/v1/tax/sequestration/policy", c.body)
				is.Equal(r.Status, http.StatusBadRequest)
				is.True(r.field(t, c.field) != "")
			})
		}
	})
	t.Run("ReservesHalfUp", func(t *testing.T) {
		is := is.New(t)
		r := e.req("POST", "/api/v1/tax/sequestration/policy", map[string]any{"enabled": true, "rate": 12.5, "trigger": "on_settlement"})
		is.Equal(r.Status, http.StatusOK)
		is.Equal(r.JSON(t)["rate"], 12.5)
		// 1.01 USD × 83.25 = ₹84.0825 → 8408 paise; 12.5% = 1051 paise (1051.0) ; 0.07 USD → 583 paise (5.8275 → 5.83), 12.5% = 72.875 → 73.
		id := e.pay("0.07", nil)
		e.waitStatus(id, store.StatusCompleted, 5*time.Second)
		s := e.req("GET", "/api/v1/tax/sequestration", nil).JSON(t)
		is.Equal(s["enabled"], true)
		is.Equal(s["reserveBalance"], 0.73)
		is.Equal(s["policy"].(map[string]any)["trigger"], "on_settlement")
		acct := e.settleAccount()
		b := e.req("GET", "/api/v1/ledger/accounts/"+acct+"/balance", nil).JSON(t)
		is.Equal(b["settled"], float64(583-73))
		is.Equal(b["reserved"], float64(73))
		entries := e.req("GET", "/api/v1/ledger/accounts/"+acct+"/entries", nil).JSON(t)["entries"].([]any)
		is.Equal(entries[0].(map[string]any)["type"], "DEBIT")
		is.Equal(entries[0].(map[string]any)["amount"], float64(73))
	})
}
