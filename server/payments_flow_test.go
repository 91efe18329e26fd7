package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/matryer/is"
	"github.com/riverqueue/river/rivertype"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/store/storetest"
)

// statusHistory is the sequence of statuses a payment went through, read
// from its audit rows.
func (e *env) statusHistory(id string) []string {
	e.t.Helper()
	rows, err := e.SQL.Query("SELECT changes FROM audit_log WHERE resource_id = ? AND action LIKE 'payment.%' ORDER BY seq", id)
	if err != nil {
		e.t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var ch string
		if err := rows.Scan(&ch); err != nil {
			e.t.Fatal(err)
		}
		if i := strings.Index(ch, `"to":"`); i >= 0 {
			rest := ch[i+6:]
			out = append(out, rest[:strings.IndexByte(rest, '"')])
		} else if strings.Contains(ch, `"status":"INITIATED"`) {
			out = append(out, "INITIATED")
		}
	}
	return out
}

func TestSandboxOutcomes(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const opening = store.SandboxOpeningBalance
	cases := []struct {
		name    string
		amount  string
		final   string
		history []string
		reason  string
		debited int64
	}{
		{"Completed", "100.00", store.StatusCompleted,
			[]string{"INITIATED", "COMPLIANCE_CHECK", "PROCESSING", "SUBMITTED", "CONFIRMED", "COMPLETED"}, "", 10000},
		{"SettlementRejected", "100.13", store.StatusFailed,
			[]string{"INITIATED", "COMPLIANCE_CHECK", "PROCESSING", "SUBMITTED", "FAILED"}, "SETTLEMENT_REJECTED", 0},
		{"TransientPending", "100.42", store.StatusPending,
			[]string{"INITIATED", "COMPLIANCE_CHECK", "PROCESSING", "PENDING"}, "", 0},
		{"ManualReview", "100.66", store.StatusManualReview,
			[]string{"INITIATED", "COMPLIANCE_CHECK", "MANUAL_REVIEW"}, "", 0},
	}
	spent := int64(0)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			id := e.pay(c.amount, nil)
			p := e.waitStatus(id, c.final, 5*time.Second)
			is.Equal(e.statusHistory(id), c.history)
			if c.reason != "" {
				is.True(strings.HasPrefix(p.FailedReason, c.reason))
				r := e.req("GET", "/api/v1/payments/payouts/"+id, nil)
				is.True(strings.HasPrefix(r.JSON(t)["failedReason"].(string), c.reason))
			}
			spent += c.debited
			v := e.vault()
			is.Equal(v.Balance, opening-spent)
			if c.final == store.StatusManualReview {
				is.Equal(p.Reserved, int64(10066)) // held while a person looks
			} else {
				is.Equal(p.Reserved, int64(0))
			}
		})
	}
}

func TestRetryAndReview(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	t.Run("FailedThenRetrySucceeds", func(t *testing.T) {
		is := is.New(t)
		before := e.vault().Balance
		id := e.pay("50.13", nil)
		e.waitStatus(id, store.StatusFailed, 5*time.Second)
		is.Equal(e.vault().Reserved, int64(0)) // released
		r := e.req("POST", "/api/v1/payments/"+id+"/retry", nil)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(r.JSON(t)["status"], "PROCESSING")
		e.waitStatus(id, store.StatusCompleted, 5*time.Second)
		is.Equal(e.vault().Balance, before-5013)
		// Retrying a COMPLETED payment is refused.
		r = e.req("POST", "/api/v1/payments/"+id+"/retry", nil)
		is.Equal(r.Status, http.StatusConflict)
		is.Equal(r.errCode(t), "ERR_INVALID_STATE")
	})
	t.Run("PendingThenRetrySucceeds", func(t *testing.T) {
		is := is.New(t)
		id := e.pay("50.42", nil)
		e.waitStatus(id, store.StatusPending, 5*time.Second)
		is.Equal(e.req("POST", "/api/v1/payments/"+id+"/retry", nil).Status, http.StatusOK)
		e.waitStatus(id, store.StatusCompleted, 5*time.Second)
	})
	t.Run("ManualReviewApprove", func(t *testing.T) {
		is := is.New(t)
		id := e.pay("20.66", nil)
		e.waitStatus(id, store.StatusManualReview, 5*time.Second)
		r := e.req("POST", "/api/v1/sandbox/payments/"+id+"/review", map[string]any{"decision": "approve"})
		is.Equal(r.Status, http.StatusOK)
		e.waitStatus(id, store.StatusCompleted, 5*time.Second)
	})
	t.Run("ManualReviewReject", func(t *testing.T) {
		is := is.New(t)
		id := e.pay("20.66", nil)
		e.waitStatus(id, store.StatusManualReview, 5*time.Second)
		r := e.req("POST", "/api/v1/sandbox/payments/"+id+"/review", map[string]any{"decision": "reject", "reason": "unclear purpose"})
		is.Equal(r.Status, http.StatusOK)
		p := e.waitStatus(id, store.StatusFailed, time.Second)
		is.Equal(p.FailedReason, "COMPLIANCE_REJECTED: unclear purpose")
		is.Equal(p.Reserved, int64(0))
		r = e.req("POST", "/api/v1/sandbox/payments/"+id+"/review", map[string]any{"decision": "approve"})
		is.Equal(r.Status, http.StatusConflict)
	})
	t.Run("ErrRetryUnknownPayment", func(t *testing.T) {
		is := is.New(t)
		r := e.req("POST", "/api/v1/payments/pay_nope/retry", nil)
		is.Equal(r.Status, http.StatusNotFound)
		is.Equal(r.errCode(t), "ERR_PAYMENT_NOT_FOUND")
	})
}

func TestUnknownResolvesToConfirmed(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t, func(o *envOpts) { o.unknownWindow = 300 * time.Millisecond })
	id := e.pay("10.99", nil)
	p := e.waitStatus(id, store.StatusUnknown, 5*time.Second)
	is.Equal(p.Reserved, int64(1099)) // funds stay reserved: never lost
	// The job that keeps asking the rail committed with the UNKNOWN state:
	// no crash can leave the payout without one.
	jobs := storetest.JobsOf(t, e.River, func(a payout.AdvanceArgs) bool { return a.PaymentID == id },
		rivertype.JobStateAvailable, rivertype.JobStateScheduled, rivertype.JobStateRunning, rivertype.JobStateRetryable)
	is.Equal(len(jobs), 1)
	e.waitStatus(id, store.StatusCompleted, 5*time.Second)
	is.Equal(e.statusHistory(id), []string{"INITIATED", "COMPLIANCE_CHECK", "PROCESSING", "SUBMITTED", "UNKNOWN", "CONFIRMED", "COMPLETED"})
	is.Equal(e.vault().Reserved, int64(0))
}

func TestComplianceBlockedCountry(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t)
	e.approveKYC(e.UserID)
	id := e.pay("10.00", map[string]any{"counterpartyCountry": "KP"})
	p := e.waitStatus(id, store.StatusFailed, 5*time.Second)
	is.True(strings.HasPrefix(p.FailedReason, "COMPLIANCE_REJECTED: "))
	is.Equal(e.vault().Reserved, int64(0))
}

func TestSettledValueAndForm15CA(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t)
	e.approveKYC(e.UserID)
	id := e.pay("6006.01", map[string]any{"counterpartyCountry": "US", "purposeCode": "P0802", "invoiceRef": "INV-1"})
	p := e.waitStatus(id, store.StatusCompleted, 5*time.Second)
	// 6006.01 USD × 83.25 = 500,000.3325 INR → 50,000,033 paise (half-up).
	is.Equal(*p.AmountINR, int64(50000033))
	r := e.req("GET", "/api/v1/payments/"+id+"/form15ca", nil)
	is.Equal(r.Status, 200)
	m := r.JSON(t)
	is.Equal(m["part"], "C")
	is.Equal(m["requiresCA"], true)
	is.Equal(m["remittanceAmount"], "6006.01")
	// The user's own export receipt: no form is filed, and the note says
	// who would file one, not that a CA certificate is needed regardless.
	is.Equal(m["applies"], false)
	note := m["note"].(string)
	is.True(strings.Contains(note, "remits a sum to a non-resident"))
	is.True(strings.Contains(note, "you file no Form 15CA and need no Form 15CB for it"))
	is.True(strings.Contains(note, "if you paid this amount to a non-resident"))
	// Below ₹5 lakh alone, but judged with the year's earlier receipt
	// (rule 37BB's aggregate): Part C. A domestic receipt is no payment to
	// a non-resident and counts for nothing.
	id2 := e.pay("6005.99", map[string]any{"counterpartyCountry": "US", "invoiceRef": "INV-2"})
	e.waitStatus(id2, store.StatusCompleted, 5*time.Second)
	m = e.req("GET", "/api/v1/payments/"+id2+"/form15ca", nil).JSON(t)
	is.Equal(m["remittanceInr"], "499998.67")
	is.Equal(m["yearAggregateInr"], "999999.00")
	is.Equal(m["part"], "C")
	is.Equal(m["requiresCA"], true)
}

func TestStatusByTxnIDAndHealth(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	r := e.req("POST", "/api/v1/payments/initiate", map[string]any{"amount": 5, "currency": "USD", "destinationAddress": testAddress},
		"Idempotency-Key", "6f1c0a4e-8d0b-4c55-9d38-0c2f0e7b8a11")
	id := r.JSON(t)["id"].(string)
	s := e.req("GET", "/api/v1/payments/6f1c0a4e-8d0b-4c55-9d38-0c2f0e7b8a11/status", nil)
	is.Equal(s.Status, 200)
	is.Equal(s.JSON(t)["id"], id)
	is.Equal(strings.TrimSpace(string(e.req("GET", "/api/v1/payments/"+id+"/status", nil).Body)), "null") // by txnId, not id
	h := e.req("GET", "/api/v1/payments/providers/health", nil).JSON(t)
	is.Equal(h["status"], "HEALTHY")
	is.Equal(h["settlement"], "UP")
	_ = context.Background()
}

// TestSandboxStepsShareOneTransaction: on the sandbox rail every step after
// confirm commits together, each still audited under its own actor; a
// transient submit failure commits compliance alone and the step path
// takes over (its backoff never runs inside a transaction).
func TestSandboxStepsShareOneTransaction(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	steps := func(id string) (actors []string, times map[int64]bool) {
		rows, err := e.SQL.Query(`SELECT actor, at FROM audit_log WHERE resource_id = ? AND action LIKE 'payment.%'
			AND action NOT IN ('payment.initiated', 'payment.compliance_check') ORDER BY seq`, id)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		times = map[int64]bool{}
		for rows.Next() {
			var actor string
			var at int64
			if err := rows.Scan(&actor, &at); err != nil {
				t.Fatal(err)
			}
			actors, times[at] = append(actors, actor), true
		}
		return actors, times
	}
	is := is.New(t)

	id := e.pay("100.00", nil)
	e.waitStatus(id, store.StatusCompleted, 5*time.Second)
	actors, times := steps(id)
	is.Equal(actors, []string{"system:compliance", "system:settlement", "system:settlement", "system:post_settlement"})
	is.Equal(len(times), 1) // PROCESSING … COMPLETED written by one transaction

	id = e.pay("100.42", nil)
	e.waitStatus(id, store.StatusPending, 5*time.Second)
	actors, times = steps(id)
	is.Equal(actors, []string{"system:compliance", "system:settlement"})
	is.Equal(len(times), 2) // PENDING came after the in-job retries, in its own transaction
}

// TestOnlyItsJobMovesAPayout: a payout moves only through the River job
// inserted in the transaction that made it owe a step. Confirmed without
// that job, it stays in COMPLIANCE_CHECK (no dispatcher, no sweep) while
// a payout confirmed after it through the API, with its job, completes;
// once a transaction inserts the job, it completes too. The API's confirm
// inserts exactly one job with the state change.
func TestOnlyItsJobMovesAPayout(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	is := is.New(t)
	ctx := context.Background()
	id := e.initiate("100.00", nil)
	var p store.Payment
	is.NoErr(e.DB.WithTx(ctx, func(tx *store.Tx) (err error) {
		p, err = tx.Payments().ConfirmPayment(e.UserID, store.ConfirmInput{ID: id, DestinationAddress: testAddress,
			Amount: 10000, Currency: "USD", VaultID: e.VaultID, Sealer: e.Sealer})
		return err
	}))
	// River fetched and ran a later payout's job from start to end:
	// whatever would have moved the first had its chance.
	viaAPI := e.pay("101.00", nil)
	e.waitStatus(viaAPI, store.StatusCompleted, 30*time.Second)
	got, err := e.DB.Payments().FindPayment(ctx, e.UserID, id)
	is.NoErr(err)
	is.Equal(got.Status, store.StatusComplianceCheck)

	is.NoErr(e.DB.WithTx(ctx, func(tx *store.Tx) error { return payout.Enqueue(tx, p) }))
	e.waitStatus(id, store.StatusCompleted, 30*time.Second)

	is.Equal(len(storetest.JobsOf(t, e.River, func(a payout.AdvanceArgs) bool { return a.PaymentID == viaAPI })), 1)
}

// TestGeneratedTxnIDsAreTimeOrderedUUIDs: without an Idempotency-Key the
// txnId is a fresh UUID, version 7, so later payments sort after earlier
// ones (and the (user_id, txn_id) index grows at its end).
func TestGeneratedTxnIDsAreTimeOrderedUUIDs(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	is := is.New(t)
	var prev string
	for i := 0; i < 5; i++ {
		r := e.req("POST", "/api/v1/payments/initiate", map[string]any{"amount": json.Number("10.00"), "currency": "USD",
			"destinationAddress": testAddress})
		is.Equal(r.Status, http.StatusCreated)
		txn := r.JSON(t)["txnId"].(string)
		u, err := uuid.Parse(txn)
		is.NoErr(err)
		is.Equal(u.Version(), uuid.Version(7))
		is.True(txn > prev)
		prev = txn
	}
}

// TestConfirmWithStaleReadFails: confirm may take the payment as a read
// connection saw it before its transaction; if another confirm moved it
// meanwhile, the transition's guard refuses and nothing is reserved twice.
func TestConfirmWithStaleReadFails(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	is := is.New(t)
	ctx := context.Background()
	id := e.initiate("100.00", nil)
	stale, err := e.DB.Payments().FindPayment(ctx, e.UserID, id)
	is.NoErr(err)
	confirm := func() error {
		return e.DB.WithTx(ctx, func(tx *store.Tx) error {
			_, err := tx.Payments().ConfirmPayment(e.UserID, store.ConfirmInput{ID: id, DestinationAddress: testAddress,
				Amount: 10000, Currency: "USD", VaultID: e.VaultID, Sealer: e.Sealer, Read: &stale})
			return err
		})
	}
	// The vault covers this payout once: a second reservation would also
	// fail for funds, but the error must say what happened to the payment.
	_, err = e.SQL.Exec("UPDATE vaults SET reserved = balance - 10000 WHERE id = ?", e.VaultID)
	is.NoErr(err)
	available := func() (n int64) {
		is.NoErr(e.SQL.QueryRow("SELECT balance - reserved FROM vaults WHERE id = ?", e.VaultID).Scan(&n))
		return n
	}
	is.NoErr(confirm())
	is.Equal(available(), int64(0))
	err = confirm() // the same stale INITIATED copy again
	is.Equal(apperr.Code(err), apperr.ErrInvalidState)
	is.Equal(available(), int64(0))
	p, err := e.DB.Payments().FindPayment(ctx, e.UserID, id)
	is.NoErr(err)
	is.Equal(p.Status, store.StatusComplianceCheck)
}

// TestConfirmWithStaleVaultRead: the vault confirm read on a read
// connection may show more than is left; the reserving UPDATE checks the
// balance itself, so a confirm the vault cannot cover fails and reserves
// nothing.
func TestConfirmWithStaleVaultRead(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	is := is.New(t)
	ctx := context.Background()
	id := e.initiate("100.00", nil)
	v, err := e.DB.Vaults().VaultWithKey(ctx, e.UserID, e.VaultID)
	is.NoErr(err)
	_, err = e.SQL.Exec("UPDATE vaults SET reserved = balance - 9999 WHERE id = ?", e.VaultID) // 99.99 left
	is.NoErr(err)
	err = e.DB.WithTx(ctx, func(tx *store.Tx) error {
		_, err := tx.Payments().ConfirmPayment(e.UserID, store.ConfirmInput{ID: id, DestinationAddress: testAddress,
			Amount: 10000, Currency: "USD", VaultID: e.VaultID, Sealer: e.Sealer, ReadVault: &v})
		return err
	})
	is.Equal(apperr.Code(err), apperr.ErrInsufficientFunds)
	var balance, reserved int64
	is.NoErr(e.SQL.QueryRow("SELECT balance, reserved FROM vaults WHERE id = ?", e.VaultID).Scan(&balance, &reserved))
	is.Equal(balance-reserved, int64(9999))
	p, err := e.DB.Payments().FindPayment(ctx, e.UserID, id)
	is.NoErr(err)
	is.Equal(p.Status, store.StatusInitiated)
}

// TestForm15CABoundary: a remittance not exceeding ₹5 lakh is Part A (rule
// 37BB), so exactly ₹5,00,000.00 is Part A and a paisa more is Part C.
func TestForm15CABoundary(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	for _, c := range []struct {
		amount, part string
		ca           bool
	}{
		{"500000.00", "A", false},
		{"500000.01", "C", true},
	} {
		t.Run(c.amount, func(t *testing.T) {
			is := is.New(t)
			r := e.req("POST", "/api/v1/payments/initiate", map[string]any{"amount": c.amount, "currency": "INR",
				"destinationAddress": testAddress})
			is.Equal(r.Status, 201)
			m := e.req("GET", "/api/v1/payments/"+r.JSON(t)["id"].(string)+"/form15ca", nil).JSON(t)
			is.Equal(m["remittanceInr"], c.amount)
			is.Equal(m["part"], c.part)
			is.Equal(m["requiresCA"], c.ca)
		})
	}
}
