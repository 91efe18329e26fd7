package server_test

import (
	"context"
	"fmt"
	"math/rand"
	"net/http"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/store/storetest"
)

// settleAccount returns the id of the caller's INR settlement account.
func (e *env) settleAccount() string {
	e.t.Helper()
	r := e.req("GET", "/api/v1/ledger/accounts", nil)
	for _, it := range r.JSON(e.t)["items"].([]any) {
		a := it.(map[string]any)
		if a["kind"] == "settlement" {
			return a["id"].(string)
		}
	}
	e.t.Fatalf("no settlement account in %s", r.Body)
	return ""
}

// quiesce waits until no payout is mid-pipeline and no job is waiting.
func (e *env) quiesce() {
	e.t.Helper()
	settled := false
	defer func() {
		if !settled {
			e.dumpOpen()
		}
	}()
	wait.For(e.t, 30*time.Second, func() error {
		var open int
		e.SQL.QueryRow(`SELECT count(*) FROM payments WHERE status IN ('COMPLIANCE_CHECK','PROCESSING','SUBMITTED','CONFIRMED','UNKNOWN')`).Scan(&open)
		jobsLeft := len(e.jobsLeft())
		if open > 0 || jobsLeft > 0 {
			return fmt.Errorf("pipeline did not settle: %d open payouts, %d jobs", open, jobsLeft)
		}
		return nil
	})
	settled = true
}

// checkBooks asserts every ledger invariant the issue names.
func (e *env) checkBooks(step string) {
	e.t.Helper()
	problems, err := e.DB.Health().Check(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	if len(problems) > 0 {
		e.t.Fatalf("after %s: %v", step, problems)
	}
	var credited int64
	e.SQL.QueryRow(`SELECT coalesce(sum(amount_inr), 0) FROM payments WHERE user_id = ? AND status IN ('CONFIRMED','COMPLETED')`, e.UserID).Scan(&credited)
	b := e.req("GET", "/api/v1/ledger/accounts/"+e.settleAccount()+"/balance", nil).JSON(e.t)
	settled, reserved := int64(b["settled"].(float64)), int64(b["reserved"].(float64))
	if settled+reserved != credited {
		e.t.Fatalf("after %s: settled %d + reserved %d != INR credited by settled payouts %d", step, settled, reserved, credited)
	}
	var twice int
	e.SQL.QueryRow(`SELECT count(*) FROM (SELECT payment_id FROM ledger_txns WHERE kind = 'settlement' GROUP BY payment_id HAVING count(*) > 1)`).Scan(&twice)
	if twice != 0 {
		e.t.Fatalf("after %s: %d payments settled twice", step, twice)
	}
}

func TestLedgerProperties(t *testing.T) {
	t.Parallel()
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewSource(seed))
	e := newEnv(t, func(o *envOpts) {
		o.limits = map[string]int{"initiate": 1e6, "confirm": 1e6}
		o.unknownWindow = 50 * time.Millisecond
	})
	e.approveKYC(e.UserID)
	cents := []int{0, 0, 0, 13, 42, 66, 99, 7, 50}
	for step := 0; step < 40; step++ {
		var what string
		switch rng.Intn(6) {
		case 0, 1, 2:
			amount := fmt.Sprintf("%d.%02d", 1+rng.Intn(2000), cents[rng.Intn(len(cents))])
			extra := map[string]any{"counterpartyCountry": "US"}
			if rng.Intn(2) == 0 {
				extra["invoiceRef"] = fmt.Sprintf("INV-%d", step)
			}
			e.pay(amount, extra)
			what = "pay " + amount
		case 3:
			var id string
			if e.SQL.QueryRow(`SELECT id FROM payments WHERE status IN ('FAILED','PENDING') ORDER BY random() LIMIT 1`).Scan(&id) == nil {
				if r := e.req("POST", "/api/v1/payments/"+id+"/retry", nil); r.Status != http.StatusOK {
					t.Fatalf("retry %s: %d %s", id, r.Status, r.Body)
				}
			}
			what = "retry " + id
		case 4:
			var id string
			if e.SQL.QueryRow(`SELECT payment_id FROM reconciliations WHERE status = 'PENDING_RECONCILIATION' ORDER BY random() LIMIT 1`).Scan(&id) == nil {
				if r := e.req("POST", "/api/v1/ledger/reconciliation/"+id+"/resolve", map[string]any{"invoiceRef": "INV-LATE", "note": "matched by hand"}); r.Status != http.StatusOK {
					t.Fatalf("resolve %s: %d %s", id, r.Status, r.Body)
				}
			} else if e.SQL.QueryRow(`SELECT id FROM payments WHERE status = 'MANUAL_REVIEW' LIMIT 1`).Scan(&id) == nil {
				e.req("POST", "/api/v1/sandbox/payments/"+id+"/review", map[string]any{"decision": []string{"approve", "reject"}[rng.Intn(2)]})
			}
			what = "resolve/review " + id
		case 5:
			rate := fmt.Sprintf("%d.%02d", rng.Intn(101), 0)
			if rng.Intn(2) == 0 && rate != "100.00" {
				rate = fmt.Sprintf("%d.%02d", rng.Intn(100), rng.Intn(100))
			}
			r := e.req("POST", "/api/v1/tax/sequestration/policy", map[string]any{"enabled": rng.Intn(3) > 0, "rate": rate, "trigger": "on_settlement"})
			if r.Status != http.StatusOK {
				t.Fatalf("policy %s: %d %s", rate, r.Status, r.Body)
			}
			what = "policy " + rate
		}
		e.quiesce()
		e.checkBooks(what)
	}
	// A settlement or post-settlement job that runs again posts nothing.
	is := is.New(t)
	var before int
	e.SQL.QueryRow("SELECT count(*) FROM ledger_postings").Scan(&before)
	rows, err := e.SQL.Query("SELECT id FROM payments WHERE status = 'COMPLETED'")
	is.NoErr(err)
	var done []string
	for rows.Next() {
		var id string
		rows.Scan(&id)
		done = append(done, id)
	}
	rows.Close()
	for _, id := range done {
		_, err := e.River.Insert(context.Background(), payout.AdvanceArgs{PaymentID: id}, nil)
		is.NoErr(err)
	}
	e.quiesce()
	var after int
	e.SQL.QueryRow("SELECT count(*) FROM ledger_postings").Scan(&after)
	is.Equal(after, before)
	e.checkBooks("duplicate jobs")
	_ = store.Reconciled
}

func (e *env) dumpOpen() {
	rows, _ := e.SQL.Query(`SELECT id, status, amount, attempt FROM payments WHERE status IN ('COMPLIANCE_CHECK','PROCESSING','SUBMITTED','CONFIRMED','UNKNOWN')`)
	for rows.Next() {
		var id, st string
		var a, at int64
		rows.Scan(&id, &st, &a, &at)
		e.t.Logf("open: %s %s %d attempt %d", id, st, a, at)
	}
	rows.Close()
	for _, j := range e.jobsLeft() {
		e.t.Logf("job: %s %s %d %v %s", j.Kind, j.State, j.Attempt, j.Errors, j.ScheduledAt)
	}
}

// jobsLeft is every job River will still run or retry.
func (e *env) jobsLeft() []*rivertype.JobRow {
	return storetest.Jobs(e.t, e.River, river.NewJobListParams().States(rivertype.JobStateAvailable,
		rivertype.JobStateRunning, rivertype.JobStateRetryable, rivertype.JobStateScheduled))
}
