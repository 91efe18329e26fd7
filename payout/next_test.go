package payout_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/store"
)

// usd100 is a payout of 100.00 USD; at 83.25 it is worth ₹8,325.00.
var (
	usd100     = payment{amount: 100_00}
	liveUSD100 = payment{amount: 100_00, live: true}
	rate8325   = mustRate("83.25")
	inr8325    = int64(8325_00)
	rateAsOf   = time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)
)

func mustRate(s string) money.Rate {
	r, err := money.ParseRate(s)
	if err != nil {
		panic(err)
	}
	return r
}

// nextCase is one payout status and one rail answer: what the status
// switch makes of it, and what recording its step stores.
type nextCase struct {
	name      string
	pay       payment
	status    string
	tune      func(pl *payout.Pipeline)
	submits   []submitAnswer
	statuses  []statusAnswer
	signs     []signAnswer // a live payout's rail signs
	impatient bool         // inside an instant rail's one transaction

	// The switch's answer: an error containing wantErr, a snooze (after,
	// when not the usual poll), nothing to do (rest), or a step by actor.
	wantErr    string
	wantSnooze bool
	wantAfter  time.Duration
	wantRest   bool
	wantActor  string
	// What recording the step stores: wantStatus, or wantApplyErr with
	// nothing written.
	wantStatus   string
	wantApplyErr error
	wantCalls    []string
	check        func(t *testing.T, w *world, before, after store.Payment)
}

// TestNextEveryStatusEveryAnswer drives the pipeline's one status switch
// for every status a payout can be in and every answer its rail can give,
// against a real store, and records each step as the pipeline would.
func TestNextEveryStatusEveryAnswer(t *testing.T) {
	t.Parallel()
	for _, c := range nextCases() {
		t.Run(c.name, func(t *testing.T) { t.Parallel(); runNext(t, c) }) // each case has its own database
	}
}

func nextCases() []nextCase {
	transient := fmt.Errorf("connection reset: %w", payout.ErrTransient)
	return []nextCase{
		// At rest: nothing is asked of the rail, nothing moves.
		{name: "Initiated/WaitsForConfirm", pay: usd100, status: store.StatusInitiated, wantRest: true},
		{name: "ManualReview/WaitsForAPerson", pay: usd100, status: store.StatusManualReview, wantRest: true},
		{name: "Completed/Final", pay: usd100, status: store.StatusCompleted, wantRest: true},
		{name: "Failed/Final", pay: usd100, status: store.StatusFailed, wantRest: true},
		{name: "Pending/WaitsForRetry", pay: usd100, status: store.StatusPending, wantRest: true},

		// COMPLIANCE_CHECK: the rules decide; the rail is not asked.
		{name: "ComplianceCheck/Passes", pay: usd100, status: store.StatusComplianceCheck,
			wantActor: "system:compliance", wantStatus: store.StatusProcessing},
		{name: "ComplianceCheck/BlockedCountry", pay: payment{amount: 100_00, country: "KP"}, status: store.StatusComplianceCheck,
			wantActor: "system:compliance", wantStatus: store.StatusFailed,
			check: failedWith("COMPLIANCE_REJECTED: counterparty country KP is blocked")},
		{name: "ComplianceCheck/AtReviewThreshold", pay: usd100, status: store.StatusComplianceCheck,
			tune:      func(pl *payout.Pipeline) { pl.ReviewThresholdINR = inr8325 },
			wantActor: "system:compliance", wantStatus: store.StatusManualReview},
		{name: "ComplianceCheck/BelowReviewThreshold", pay: usd100, status: store.StatusComplianceCheck,
			tune:      func(pl *payout.Pipeline) { pl.ReviewThresholdINR = inr8325 + 1 },
			wantActor: "system:compliance", wantStatus: store.StatusProcessing},
		{name: "ComplianceCheck/SandboxReviewTrigger", pay: payment{amount: 100_66}, status: store.StatusComplianceCheck,
			wantActor: "system:compliance", wantStatus: store.StatusManualReview},
		{name: "ComplianceCheck/LiveIgnoresSandboxTrigger", pay: payment{amount: 100_66, live: true}, status: store.StatusComplianceCheck,
			wantActor: "system:compliance", wantStatus: store.StatusProcessing},

		// PROCESSING on a rail that submits.
		{name: "Processing/Submitted", pay: usd100, status: store.StatusProcessing,
			submits:   []submitAnswer{{ref: "sbx_1"}},
			wantActor: "system:settlement", wantStatus: store.StatusSubmitted, wantCalls: []string{"submit"},
			check: func(t *testing.T, w *world, _, p store.Payment) {
				if p.SettlementRef != "sbx_1" {
					t.Errorf("settlementRef %q, want the rail's sbx_1", p.SettlementRef)
				}
			}},
		{name: "Processing/TransientThenSubmitted", pay: usd100, status: store.StatusProcessing,
			submits:   []submitAnswer{{err: transient}, {ref: "sbx_2"}},
			wantActor: "system:settlement", wantStatus: store.StatusSubmitted, wantCalls: []string{"submit", "submit"}},
		{name: "Processing/TransientEveryAttempt", pay: usd100, status: store.StatusProcessing,
			submits:   []submitAnswer{{err: transient}, {err: transient}, {err: transient}},
			wantActor: "system:settlement", wantStatus: store.StatusPending, wantCalls: []string{"submit", "submit", "submit"},
			check: fundsReleased},
		{name: "Processing/TransientInsideOneTransaction", pay: usd100, status: store.StatusProcessing, impatient: true,
			submits: []submitAnswer{{err: transient}}, wantRest: true, wantCalls: []string{"submit"}},
		{name: "Processing/SubmitError", pay: usd100, status: store.StatusProcessing,
			submits: []submitAnswer{{err: errRailBroken}}, wantErr: errRailBroken.Error(), wantCalls: []string{"submit"}},

		// PROCESSING on a rail that signs (live): the envelope is stored
		// with the move to SUBMITTED, before anything is sent.
		{name: "Processing/Signed", pay: liveUSD100, status: store.StatusProcessing,
			signs:     []signAnswer{{}},
			wantActor: "system:settlement", wantStatus: store.StatusSubmitted, wantCalls: []string{"sign"},
			check: func(t *testing.T, w *world, _, p store.Payment) {
				subs, err := w.db().Chain().PaymentSubmissions(w.ctx, p.ID)
				if err != nil || len(subs) != 1 || subs[0].State != store.SubmissionOpen || subs[0].Hash != p.SettlementRef {
					t.Errorf("submissions %+v (%v), want one OPEN envelope whose hash is the settlementRef %q", subs, err, p.SettlementRef)
				}
			}},
		{name: "Processing/SignedOnAStaleMark", pay: liveUSD100, status: store.StatusProcessing,
			signs:     []signAnswer{{stale: true}},
			wantActor: "system:settlement", wantApplyErr: store.ErrVaultBusy, wantCalls: []string{"sign"},
			check: noSubmission},
		{name: "Processing/Refused", pay: liveUSD100, status: store.StatusProcessing,
			signs:     []signAnswer{{err: &payout.Refusal{Reason: "memo is 29 bytes"}}},
			wantActor: "system:settlement", wantStatus: store.StatusFailed, wantCalls: []string{"sign"},
			check: all(failedWith("SETTLEMENT_REJECTED: memo is 29 bytes"), fundsReleased, noSubmission)},
		{name: "Processing/VaultBusy", pay: liveUSD100, status: store.StatusProcessing,
			signs: []signAnswer{{err: store.ErrVaultBusy}}, wantSnooze: true, wantCalls: []string{"sign"}},
		{name: "Processing/SignTransient", pay: liveUSD100, status: store.StatusProcessing,
			signs: []signAnswer{{err: transient}}, wantSnooze: true, wantCalls: []string{"sign"}},
		{name: "Processing/SignError", pay: liveUSD100, status: store.StatusProcessing,
			signs: []signAnswer{{err: errRailBroken}}, wantErr: errRailBroken.Error(), wantCalls: []string{"sign"}},

		// SUBMITTED: the rail says what became of it.
		{name: "Submitted/Settled", pay: usd100, status: store.StatusSubmitted,
			statuses:  []statusAnswer{{out: payout.Outcome{State: payout.Settled, Rate: rate8325}}},
			wantActor: "system:settlement", wantStatus: store.StatusConfirmed, wantCalls: []string{"status"},
			check: valuedAt(inr8325, "83.25", time.Time{})},
		{name: "Submitted/SettledWithRateTime", pay: liveUSD100, status: store.StatusSubmitted,
			statuses:  []statusAnswer{{out: payout.Outcome{State: payout.Settled, Rate: rate8325, AsOf: rateAsOf}}},
			wantActor: "system:settlement", wantStatus: store.StatusConfirmed, wantCalls: []string{"status"},
			check: valuedAt(inr8325, "83.25", rateAsOf)},
		{name: "Submitted/SettledAwaitingRate", pay: liveUSD100, status: store.StatusSubmitted,
			statuses:  []statusAnswer{{out: payout.Outcome{State: payout.Settled, Waiting: "USD rate is stale"}}},
			wantActor: "system:settlement", wantStatus: store.StatusConfirmed, wantCalls: []string{"status"},
			check: func(t *testing.T, w *world, before, p store.Payment) {
				if p.AmountINR != nil || p.Reserved != before.Reserved {
					t.Errorf("amountInr %v, reserved %d: want no value and the reservation (%d) kept", p.AmountINR, p.Reserved, before.Reserved)
				}
			}},
		{name: "Submitted/Failed", pay: usd100, status: store.StatusSubmitted,
			statuses:  []statusAnswer{{out: payout.Outcome{State: payout.Failed, Reason: "SETTLEMENT_REJECTED: op_no_trust"}}},
			wantActor: "system:settlement", wantStatus: store.StatusFailed, wantCalls: []string{"status"},
			check: all(failedWith("SETTLEMENT_REJECTED: op_no_trust"), fundsReleased)},
		{name: "Submitted/Unknown", pay: usd100, status: store.StatusSubmitted,
			statuses:  []statusAnswer{{out: payout.Outcome{State: payout.Unknown}}},
			wantActor: "system:settlement", wantStatus: store.StatusUnknown, wantCalls: []string{"status"}},
		{name: "Submitted/LiveUnknownWithinWindow", pay: liveUSD100, status: store.StatusSubmitted,
			tune:     func(pl *payout.Pipeline) { pl.LiveUnknownAfter = time.Hour },
			statuses: []statusAnswer{{out: payout.Outcome{State: payout.Unknown}}}, wantSnooze: true, wantCalls: []string{"status"}},
		{name: "Submitted/LiveUnknownAfterWindow", pay: liveUSD100, status: store.StatusSubmitted,
			tune:      func(pl *payout.Pipeline) { pl.LiveUnknownAfter = time.Nanosecond },
			statuses:  []statusAnswer{{out: payout.Outcome{State: payout.Unknown}}},
			wantActor: "system:settlement", wantStatus: store.StatusUnknown, wantCalls: []string{"status"}},
		{name: "Submitted/Transient", pay: usd100, status: store.StatusSubmitted,
			statuses: []statusAnswer{{err: transient}}, wantSnooze: true, wantCalls: []string{"status"}},
		{name: "Submitted/Error", pay: usd100, status: store.StatusSubmitted,
			statuses: []statusAnswer{{err: errRailBroken}}, wantErr: errRailBroken.Error(), wantCalls: []string{"status"}},
		{name: "Submitted/FinalRecordedWithOutcome", pay: liveUSD100, status: store.StatusSubmitted,
			statuses: []statusAnswer{{out: payout.Outcome{State: payout.Failed, Reason: "SETTLEMENT_REJECTED: tx_bad_seq",
				Record: func(tx *store.Tx) error {
					return tx.Audit("", true, "test.recorded", "test", "outcome", nil)
				}}}},
			wantActor: "system:settlement", wantStatus: store.StatusFailed, wantCalls: []string{"status"},
			check: func(t *testing.T, w *world, _, p store.Payment) {
				var n int
				if err := w.sql.QueryRow("SELECT count(*) FROM audit_log WHERE action = 'test.recorded'").Scan(&n); err != nil || n != 1 {
					t.Errorf("the outcome's record ran %d times (%v), want once, with the move", n, err)
				}
			}},
		{name: "Submitted/FinalRecordFails", pay: liveUSD100, status: store.StatusSubmitted,
			statuses: []statusAnswer{{out: payout.Outcome{State: payout.Settled, Rate: rate8325,
				Record: func(tx *store.Tx) error { return errRailBroken }}}},
			wantActor: "system:settlement", wantApplyErr: errRailBroken, wantCalls: []string{"status"}},

		// UNKNOWN: asked again; an answer is the reconciliation's.
		{name: "Unknown/Settled", pay: usd100, status: store.StatusUnknown,
			statuses:  []statusAnswer{{out: payout.Outcome{State: payout.Settled, Rate: rate8325}}},
			wantActor: "system:reconciliation", wantStatus: store.StatusConfirmed, wantCalls: []string{"status"},
			check: valuedAt(inr8325, "83.25", time.Time{})},
		{name: "Unknown/Failed", pay: usd100, status: store.StatusUnknown,
			statuses:  []statusAnswer{{out: payout.Outcome{State: payout.Failed, Reason: "SETTLEMENT_EXPIRED: time bound passed"}}},
			wantActor: "system:reconciliation", wantStatus: store.StatusFailed, wantCalls: []string{"status"},
			check: all(failedWith("SETTLEMENT_EXPIRED: time bound passed"), fundsReleased)},
		{name: "Unknown/StillUnknown", pay: usd100, status: store.StatusUnknown,
			statuses: []statusAnswer{{out: payout.Outcome{State: payout.Unknown}}}, wantSnooze: true, wantCalls: []string{"status"}},
		{name: "Unknown/Transient", pay: usd100, status: store.StatusUnknown,
			statuses: []statusAnswer{{err: transient}}, wantSnooze: true, wantCalls: []string{"status"}},
		{name: "Unknown/Error", pay: usd100, status: store.StatusUnknown,
			statuses: []statusAnswer{{err: errRailBroken}}, wantErr: errRailBroken.Error(), wantCalls: []string{"status"}},

		// CONFIRMED: completed once valued; valued once a fresh rate is in hand.
		{name: "Confirmed/Completes", pay: usd100, status: store.StatusConfirmed,
			wantActor: "system:post_settlement", wantStatus: store.StatusCompleted,
			check: reconciled},
		{name: "Confirmed/CompletesUnreconciled", pay: payment{amount: 100_00, noInvoice: true}, status: store.StatusConfirmed,
			wantActor: "system:post_settlement", wantStatus: store.StatusCompleted,
			check: func(t *testing.T, w *world, _, p store.Payment) {
				var status string
				if err := w.sql.QueryRow("SELECT status FROM reconciliations WHERE payment_id = ?", p.ID).Scan(&status); err != nil || status != store.PendingReconciliation {
					t.Errorf("reconciliation %q (%v), want %s", status, err, store.PendingReconciliation)
				}
			}},
		{name: "Confirmed/CrossBorderGetsItsFIRA", pay: payment{amount: 100_00, country: "US"}, status: store.StatusConfirmed,
			wantActor: "system:post_settlement", wantStatus: store.StatusCompleted,
			check: all(reconciled, func(t *testing.T, w *world, _, p store.Payment) {
				var n int
				if err := w.sql.QueryRow("SELECT count(*) FROM firas WHERE payment_id = ?", p.ID).Scan(&n); err != nil || n != 1 {
					t.Errorf("%d FIRAs (%v), want one", n, err)
				}
			})},
		{name: "Confirmed/UnvaluedNoRateSource", pay: liveUSD100, status: confirmedUnvalued,
			wantErr: "no rate source is configured"},
		{name: "Confirmed/UnvaluedRateStale", pay: liveUSD100, status: confirmedUnvalued,
			tune: func(pl *payout.Pipeline) {
				pl.LiveRate = func(string, time.Time) (money.Rate, time.Time, error) {
					return money.Rate{}, time.Time{}, rates.ErrStale
				}
			},
			wantSnooze: true, wantAfter: 17 * time.Second},
		{name: "Confirmed/UnvaluedRateFresh", pay: liveUSD100, status: confirmedUnvalued,
			tune: func(pl *payout.Pipeline) {
				pl.LiveRate = func(string, time.Time) (money.Rate, time.Time, error) { return rate8325, rateAsOf, nil }
			},
			wantActor: "system:post_settlement", wantStatus: store.StatusCompleted,
			check: all(valuedAt(inr8325, "83.25", rateAsOf), reconciled)},
	}
}

func runNext(t *testing.T, c nextCase) {
	w := newWorld(t)
	rail := &fakeRail{t: t, submits: c.submits, statuses: c.statuses}
	signer := &fakeSigner{fakeRail: rail, db: w.db(), signs: c.signs}
	pl := w.pipeline(rail, signer)
	if c.tune != nil {
		c.tune(pl)
	}
	before := w.make(c.pay, c.status)
	var asked payout.Settlement = rail
	if before.Livemode {
		asked = signer
	}
	st, err := pl.Next(w.ctx, asked, before, !c.impatient)

	switch {
	case c.wantErr != "":
		if err == nil || !strings.Contains(err.Error(), c.wantErr) {
			t.Fatalf("error %v, want one saying %q", err, c.wantErr)
		}
	case err != nil:
		t.Fatalf("error %v", err)
	case c.wantSnooze:
		if !st.Snooze || st.Apply != nil || st.After != c.wantAfter {
			t.Fatalf("step %+v, want a snooze after %s", st, c.wantAfter)
		}
	case c.wantRest:
		if st.Snooze || st.Apply != nil {
			t.Fatalf("step %+v, want nothing to do", st)
		}
	default:
		if st.Apply == nil || st.Snooze || st.Actor != c.wantActor {
			t.Fatalf("step %+v, want a step by %s", st, c.wantActor)
		}
	}
	if got := rail.asked(); !reflect.DeepEqual(got, c.wantCalls) && (len(got) > 0 || len(c.wantCalls) > 0) {
		t.Errorf("the rail was asked %v, want %v", got, c.wantCalls)
	}
	if n := signer.unused(); n > 0 {
		t.Errorf("%d scripted rail answers never asked for", n)
	}

	if st.Apply == nil {
		unchanged(t, w, before)
		return
	}
	q := before
	err = w.db().WithTx(w.ctx, func(tx *store.Tx) error { q = before; return st.Apply(tx, &q) }, store.WithActor(st.Actor, ""))
	if c.wantApplyErr != nil {
		if !errors.Is(err, c.wantApplyErr) {
			t.Fatalf("recording the step: %v, want %v", err, c.wantApplyErr)
		}
		unchanged(t, w, before)
	} else {
		if err != nil {
			t.Fatalf("recording the step: %v", err)
		}
		after := w.load(before.ID)
		if after.Status != c.wantStatus {
			t.Fatalf("stored %s (%q), want %s", after.Status, after.FailedReason, c.wantStatus)
		}
		if actors := w.actors(before.ID); len(actors) == 0 || actors[len(actors)-1] != c.wantActor {
			t.Errorf("audited by %v, want %s last", actors, c.wantActor)
		}
	}
	if c.check != nil {
		c.check(t, w, before, w.load(before.ID))
	}
	if problems, err := w.db().Health().Check(w.ctx); err != nil || len(problems) > 0 {
		t.Errorf("books after the step: %v %v", problems, err)
	}
}

// unchanged: the payout is stored exactly as before.
func unchanged(t *testing.T, w *world, before store.Payment) {
	t.Helper()
	if after := w.load(before.ID); after.Status != before.Status || !after.UpdatedAt.Equal(before.UpdatedAt) {
		t.Errorf("payout moved to %s at %s, want it left %s", after.Status, after.UpdatedAt, before.Status)
	}
}

type check = func(t *testing.T, w *world, before, after store.Payment)

func all(checks ...check) check {
	return func(t *testing.T, w *world, before, after store.Payment) {
		for _, c := range checks {
			c(t, w, before, after)
		}
	}
}

func failedWith(reason string) check {
	return func(t *testing.T, w *world, _, p store.Payment) {
		if p.FailedReason != reason {
			t.Errorf("failedReason %q, want %q", p.FailedReason, reason)
		}
	}
}

// fundsReleased: a payout that stopped holds nothing, and its vault's
// reservation went back.
func fundsReleased(t *testing.T, w *world, before, p store.Payment) {
	acct := w.sandbox
	if p.Livemode {
		acct = w.live
	}
	if v := w.vault(acct); p.Reserved != 0 || v.Reserved != 0 || v.Balance != acct.balance {
		t.Errorf("payout reserves %d, vault %d of %d: want the funds released", p.Reserved, v.Reserved, v.Balance)
	}
}

func noSubmission(t *testing.T, w *world, _, p store.Payment) {
	if subs, err := w.db().Chain().PaymentSubmissions(w.ctx, p.ID); err != nil || len(subs) != 0 {
		t.Errorf("submissions %+v (%v), want none", subs, err)
	}
}

// valuedAt: the payout is worth inr at rate, its vault debited, and the
// rate's time kept when it had one.
func valuedAt(inr int64, rate string, asOf time.Time) check {
	return func(t *testing.T, w *world, before, p store.Payment) {
		if p.AmountINR == nil || *p.AmountINR != inr || p.SettlementRate != rate || p.Reserved != 0 {
			t.Errorf("amountInr %v at %q, reserved %d: want %d at %s, nothing reserved", p.AmountINR, p.SettlementRate, p.Reserved, inr, rate)
		}
		acct := w.sandbox
		if p.Livemode {
			acct = w.live
		}
		if v := w.vault(acct); v.Balance != acct.balance-p.Amount || v.Reserved != 0 {
			t.Errorf("vault %d (reserved %d), want %d", v.Balance, v.Reserved, acct.balance-p.Amount)
		}
		got, ok, err := w.db().Ledger().RateAsOf(w.ctx, p.ID)
		if err != nil || ok != !asOf.IsZero() || ok && !got.Equal(asOf) {
			t.Errorf("rate as of %s (%v, %v), want %s", got, ok, err, asOf)
		}
	}
}

func reconciled(t *testing.T, w *world, _, p store.Payment) {
	var status string
	if err := w.sql.QueryRow("SELECT status FROM reconciliations WHERE payment_id = ?", p.ID).Scan(&status); err != nil || status != store.Reconciled {
		t.Errorf("reconciliation %q (%v), want %s", status, err, store.Reconciled)
	}
}
