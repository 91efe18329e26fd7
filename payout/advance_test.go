package payout_test

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/riverqueue/river/rivertype"

	"github.com/payoutd/payoutd/money"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/store"
)

// advanceCase is one run of a payout's job: where the payout starts, what
// the rail answers, where it rests and what the job tells River.
type advanceCase struct {
	name     string
	pay      payment
	status   string
	instant  bool
	noLive   bool // the process was started without the live rail
	tune     func(pl *payout.Pipeline)
	submits  []submitAnswer
	statuses []statusAnswer
	signs    []signAnswer
	// meanwhile runs before the job, with the payout it will move.
	meanwhile func(w *world, p store.Payment)

	wantStatus string
	wantSnooze time.Duration // the job snoozes this long (0: it ends)
	wantErr    error
	wantCalls  []string
	wantActors []string // the pipeline's moves, in order
	check      func(t *testing.T, w *world, before, after store.Payment)
}

// errAny is any error River retries (not a snooze).
var errAny = errors.New("any error")

// TestAdvance runs a payout's job (Advance) against the rail's answers and
// checks where the payout rests, how it got there, and what River is told:
// done, snooze for how long, or an error to retry.
func TestAdvance(t *testing.T) {
	t.Parallel()
	transient := payout.ErrTransient
	settled := statusAnswer{out: payout.Outcome{State: payout.Settled, Rate: rate8325}}
	unknown := statusAnswer{out: payout.Outcome{State: payout.Unknown}}
	for _, c := range []advanceCase{
		{name: "InstantRail/OneRunOneTransaction", pay: usd100, status: store.StatusComplianceCheck, instant: true,
			submits: []submitAnswer{{ref: "sbx_1"}}, statuses: []statusAnswer{settled},
			wantStatus: store.StatusCompleted, wantCalls: []string{"submit", "status"},
			wantActors: []string{"system:compliance", "system:settlement", "system:settlement", "system:post_settlement"},
			check:      oneTransaction},
		{name: "Rail/StepByStep", pay: usd100, status: store.StatusComplianceCheck,
			submits: []submitAnswer{{ref: "sbx_1"}}, statuses: []statusAnswer{settled},
			wantStatus: store.StatusCompleted, wantCalls: []string{"submit", "status"},
			wantActors: []string{"system:compliance", "system:settlement", "system:settlement", "system:post_settlement"},
			check:      settledAndCompletedTogether},
		// The completion shares the settlement's transaction; when it
		// fails, the settlement is written alone and the job is retried.
		{name: "Rail/CompletionFailsSettlementStands", pay: usd100, status: store.StatusSubmitted,
			statuses: []statusAnswer{settled},
			meanwhile: func(w *world, p store.Payment) {
				w.exec("CREATE TRIGGER broken_reconciliation BEFORE INSERT ON reconciliations BEGIN SELECT RAISE(ABORT, 'reconciliation broken'); END")
			},
			wantStatus: store.StatusConfirmed, wantErr: errAny, wantCalls: []string{"status"},
			wantActors: []string{"system:settlement"}},
		{name: "Rail/UnknownSnoozes", pay: usd100, status: store.StatusComplianceCheck,
			// Recorded UNKNOWN, it is asked once more before the job snoozes.
			submits: []submitAnswer{{ref: "sbx_1"}}, statuses: []statusAnswer{unknown, unknown},
			wantStatus: store.StatusUnknown, wantSnooze: 11 * time.Second, wantCalls: []string{"submit", "status", "status"},
			wantActors: []string{"system:compliance", "system:settlement", "system:settlement"}},
		{name: "Rail/StillUnknownSnoozes", pay: usd100, status: store.StatusUnknown,
			statuses:   []statusAnswer{unknown},
			wantStatus: store.StatusUnknown, wantSnooze: 11 * time.Second, wantCalls: []string{"status"}},
		{name: "Rail/UnknownResolved", pay: usd100, status: store.StatusUnknown,
			statuses:   []statusAnswer{settled},
			wantStatus: store.StatusCompleted, wantCalls: []string{"status"},
			wantActors: []string{"system:reconciliation", "system:post_settlement"}},
		{name: "Rail/TransientParksPending", pay: usd100, status: store.StatusProcessing,
			submits:    []submitAnswer{{err: transient}, {err: transient}, {err: transient}},
			wantStatus: store.StatusPending, wantCalls: []string{"submit", "submit", "submit"},
			wantActors: []string{"system:settlement"}, check: fundsReleased},
		// The instant path commits compliance and stops at the transient
		// answer, tries once more on its own, then the patient path
		// retries SubmitAttempts times and parks the payout.
		{name: "InstantRail/TransientLeavesTheTransactionThenParks", pay: usd100, status: store.StatusComplianceCheck, instant: true,
			submits:    []submitAnswer{{err: transient}, {err: transient}, {err: transient}, {err: transient}, {err: transient}},
			wantStatus: store.StatusPending, wantCalls: []string{"submit", "submit", "submit", "submit", "submit"},
			wantActors: []string{"system:compliance", "system:settlement"}},
		{name: "Rail/TransientStatusSnoozes", pay: usd100, status: store.StatusSubmitted,
			statuses:   []statusAnswer{{err: transient}},
			wantStatus: store.StatusSubmitted, wantSnooze: 11 * time.Second, wantCalls: []string{"status"}},
		{name: "Rail/ErrorIsRetried", pay: usd100, status: store.StatusSubmitted,
			statuses:   []statusAnswer{{err: errRailBroken}},
			wantStatus: store.StatusSubmitted, wantErr: errRailBroken, wantCalls: []string{"status"}},
		{name: "Rail/MovedMeanwhile", pay: usd100, status: store.StatusSubmitted,
			statuses: []statusAnswer{settled},
			meanwhile: func(w *world, p store.Payment) {
				// Another run records the outcome first (the rail refused it).
				w.move(p.ID, store.StatusFailed, "SETTLEMENT_REJECTED: seen by another run")
			},
			wantStatus: store.StatusFailed, wantCalls: []string{"status"},
			check: all(failedWith("SETTLEMENT_REJECTED: seen by another run"), fundsReleased)},
		{name: "AtRest", pay: usd100, status: store.StatusManualReview, wantStatus: store.StatusManualReview},

		{name: "LiveRail/PaysAndFreesTheVault", pay: liveUSD100, status: store.StatusProcessing,
			signs:    []signAnswer{{}},
			statuses: []statusAnswer{{out: payout.Outcome{State: payout.Settled, Rate: rate8325, AsOf: rateAsOf}, finish: store.SubmissionSuccess}},
			meanwhile: func(w *world, p store.Payment) {
				w.waiting = w.make(liveUSD100, store.StatusProcessing) // the vault's next payout
			},
			wantStatus: store.StatusCompleted, wantCalls: []string{"sign", "status"},
			wantActors: []string{"system:settlement", "system:settlement", "system:post_settlement"},
			check: func(t *testing.T, w *world, _, p store.Payment) {
				if n := w.jobs(w.waiting.ID); n != 2 {
					t.Errorf("the vault's next payout has %d jobs, want a second one queued when the vault came free", n)
				}
				subs, err := w.db().Chain().PaymentSubmissions(w.ctx, p.ID)
				if err != nil || len(subs) != 1 || subs[0].State != store.SubmissionSuccess {
					t.Errorf("submissions %+v (%v), want one, SUCCESS", subs, err)
				}
			}},
		{name: "LiveRail/UnknownSnoozesLivePoll", pay: liveUSD100, status: store.StatusProcessing,
			signs: []signAnswer{{}}, statuses: []statusAnswer{unknown, unknown},
			wantStatus: store.StatusUnknown, wantSnooze: 13 * time.Second, wantCalls: []string{"sign", "status", "status"},
			wantActors: []string{"system:settlement", "system:settlement"}},
		{name: "LiveRail/VaultBusySnoozes", pay: liveUSD100, status: store.StatusProcessing,
			signs:      []signAnswer{{err: store.ErrVaultBusy}},
			wantStatus: store.StatusProcessing, wantSnooze: 13 * time.Second, wantCalls: []string{"sign"}},
		{name: "LiveRail/MarkMovedWhileSigning", pay: liveUSD100, status: store.StatusProcessing,
			signs:      []signAnswer{{stale: true}},
			wantStatus: store.StatusProcessing, wantSnooze: 13 * time.Second, wantCalls: []string{"sign"},
			check: noSubmission},
		{name: "LiveRail/StaleRateWaits", pay: liveUSD100, status: confirmedUnvalued,
			tune: func(pl *payout.Pipeline) {
				pl.LiveRate = func(string, time.Time) (money.Rate, time.Time, error) {
					return money.Rate{}, time.Time{}, rates.ErrStale
				}
			},
			wantStatus: store.StatusConfirmed, wantSnooze: 17 * time.Second},
		{name: "NoLiveRail/Waits", pay: liveUSD100, status: store.StatusSubmitted, noLive: true,
			wantStatus: store.StatusSubmitted, wantSnooze: 130 * time.Second},
		{name: "NoLiveRail/AtRest", pay: liveUSD100, status: store.StatusManualReview, noLive: true,
			wantStatus: store.StatusManualReview},
	} {
		t.Run(c.name, func(t *testing.T) { t.Parallel(); runAdvance(t, c) }) // each case has its own database
	}
}

func runAdvance(t *testing.T, c advanceCase) {
	w := newWorld(t)
	rail := &fakeRail{t: t, instant: c.instant, submits: c.submits, statuses: c.statuses}
	signer := &fakeSigner{fakeRail: rail, db: w.db(), signs: c.signs}
	var live payout.Settlement = signer
	if c.noLive {
		live = nil
	}
	pl := w.pipeline(rail, live)
	if c.tune != nil {
		c.tune(pl)
	}
	before := w.make(c.pay, c.status)
	if c.meanwhile != nil {
		for i := range rail.statuses {
			if rail.statuses[i].before == nil {
				rail.statuses[i].before = func() { c.meanwhile(w, before) }
				break
			}
		}
	}
	commits := w.db().CommitStats().Latency.Count
	err := pl.Advance(w.ctx, before.ID)
	w.transactions = w.db().CommitStats().Latency.Count - commits

	var snooze *rivertype.JobSnoozeError
	switch {
	case c.wantErr == errAny:
		if err == nil || errors.As(err, &snooze) {
			t.Fatalf("Advance: %v, want an error to retry", err)
		}
	case c.wantErr != nil:
		if !errors.Is(err, c.wantErr) {
			t.Fatalf("Advance: %v, want %v", err, c.wantErr)
		}
	case c.wantSnooze > 0:
		if !errors.As(err, &snooze) || snooze.Duration != c.wantSnooze {
			t.Fatalf("Advance: %v, want a snooze of %s", err, c.wantSnooze)
		}
	case err != nil:
		t.Fatalf("Advance: %v, want the job done", err)
	}
	after := w.load(before.ID)
	if after.Status != c.wantStatus {
		t.Fatalf("rests %s (%q), want %s", after.Status, after.FailedReason, c.wantStatus)
	}
	if got := w.actors(before.ID); !reflect.DeepEqual(got, c.wantActors) && (len(got) > 0 || len(c.wantActors) > 0) {
		t.Errorf("moved by %v, want %v", got, c.wantActors)
	}
	if got := rail.asked(); !reflect.DeepEqual(got, c.wantCalls) && (len(got) > 0 || len(c.wantCalls) > 0) {
		t.Errorf("the rail was asked %v, want %v", got, c.wantCalls)
	}
	if n := signer.unused(); n > 0 {
		t.Errorf("%d scripted rail answers never asked for", n)
	}
	if c.check != nil {
		c.check(t, w, before, after)
	}
	if problems, err := w.db().Health().Check(w.ctx); err != nil || len(problems) > 0 {
		t.Errorf("books after the run: %v %v", problems, err)
	}
}

// TestAdvanceUnknownPayment: a job whose payout is gone ends quietly.
func TestAdvanceUnknownPayment(t *testing.T) {
	w := newWorld(t)
	rail := &fakeRail{t: t}
	if err := w.pipeline(rail, nil).Advance(w.ctx, "pay_00000000000000000000000000"); err != nil {
		t.Fatalf("Advance: %v, want the job done", err)
	}
	if calls := rail.asked(); len(calls) > 0 {
		t.Errorf("the rail was asked %v", calls)
	}
}

// oneTransaction: every pipeline move of the payout was written by one
// transaction (one audit time).
// settledAndCompletedTogether: on a rail that is not instant the
// completion, which needs nothing more from the rail, is written in the
// settlement's transaction: compliance, submission, settlement with
// completion, three transactions for four moves.
func settledAndCompletedTogether(t *testing.T, w *world, _, p store.Payment) {
	if w.transactions != 3 {
		t.Errorf("the job wrote %d transactions, want 3", w.transactions)
	}
}

func oneTransaction(t *testing.T, w *world, _, p store.Payment) {
	var times int
	if err := w.sql.QueryRow(`SELECT count(DISTINCT at) FROM audit_log WHERE resource_id = ? AND actor LIKE 'system:%'`,
		p.ID).Scan(&times); err != nil || times != 1 {
		t.Errorf("the moves were written at %d times (%v), want one transaction", times, err)
	}
}
