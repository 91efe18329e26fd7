package stellar_test

import (
	"cmp"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/riverqueue/river/rivertype"

	"github.com/payoutd/payoutd/app"
	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/stellar"
	"github.com/payoutd/payoutd/store"
	"github.com/payoutd/payoutd/store/storetest"
)

// brokenRail is the live rail with a fault in reading the network's
// answer: every Status fails (an error, or a panic).
type brokenRail struct {
	*stellar.Rail
	panics bool
}

func (b brokenRail) Status(ctx context.Context, p store.Payment) (payout.Outcome, error) {
	if b.panics {
		var m map[string]int
		m["boom"]++
	}
	return payout.Outcome{}, errors.New("boom: the answer cannot be read")
}

// soon retries a failed job at once.
type soon struct{}

func (soon) NextRetry(*rivertype.JobRow) time.Time { return time.Now() }

// TestLiveJobGivesUp: a payout whose job fails on every attempt is not
// left owing a step with nothing to move it when River discards the job:
// it rests in its status with the reason, its funds still reserved, and
// `check` lists it; once the cause is fixed, the operator's retry sets it
// going and it completes, paid once.
func TestLiveJobGivesUp(t *testing.T) {
	for _, tc := range []struct {
		name   string
		panics bool
		reason string
	}{
		{"Error", false, "boom: the answer cannot be read"},
		{"Panic", true, "panic: assignment to entry in nil map"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			// Three attempts, at once.
			e := newLiveEnvWith(t, false, func(c *app.Config) { c.MaxAttempts, c.RetryPolicy = 3, soon{} })
			e.fundVault(100)
			p, err := e.pay(e.destination(true, true), 10_00, "")
			is.NoErr(err)
			e.Pipeline.Live = brokenRail{Rail: e.Rail, panics: tc.panics} // before the workers start
			is.NoErr(e.App.Start(e.ctx))
			wait.Until(t, 20*time.Second, "the payout to be flagged", func() bool { return e.load(p.ID).Attention != "" })
			stop, cancel := context.WithTimeout(e.ctx, 10*time.Second)
			defer cancel()
			is.NoErr(e.App.Stop(stop))

			p = e.load(p.ID)
			is.Equal(p.Status, store.StatusSubmitted) // signed and stored, never sent
			is.True(strings.HasPrefix(p.Attention, payout.AttentionJobFailed+": the payout's job failed on each of its 3 attempts"))
			is.True(strings.Contains(p.Attention, tc.reason))
			is.Equal(p.Reserved, int64(10_00)) // its funds stay held for it
			v, err := e.DB.Chain().VaultKey(e.ctx, e.Vault.ID)
			is.NoErr(err)
			is.Equal(v.Reserved, int64(10_00))

			problems, err := e.DB.Health().Check(e.ctx)
			is.NoErr(err)
			is.Equal(len(problems), 1) // the books hold; the payout is listed
			is.True(strings.HasPrefix(problems[0], "payment "+p.ID+" is SUBMITTED and owes a step, but no job will take it"))
			is.True(strings.Contains(problems[0], payout.AttentionJobFailed))
			is.Equal(e.auditActors(p.ID, "payment.needs_attention"), []string{"system:pipeline"})

			// The cause is fixed (the real rail is back, the workers
			// restarted); the operator retries.
			e.Pipeline.Live = e.Rail
			is.NoErr(e.App.Start(e.ctx))
			err = e.DB.WithTx(e.ctx, func(tx *store.Tx) error { _, err := payout.RetryOrResume(tx, p.ID); return err },
				store.WithActor("operator:test", ""))
			is.NoErr(err)
			is.Equal(e.load(p.ID).Attention, "") // set going again
			p = e.settle(p.ID)
			is.Equal(p.Status, store.StatusCompleted)
			is.Equal(e.Net.Applied(p.SettlementRef), 1)
			e.vaultMatchesChain()
			problems, err = e.DB.Health().Check(e.ctx)
			is.NoErr(err)
			is.Equal(len(problems), 0)
		})
	}
}

// TestCheckListsPayoutWithoutJob: a payout can owe a step with no job and
// no reason recorded: River's rescuer discards, without running it, the
// job of a process that died during its last attempt. `check` lists such
// a payout whatever happened to its job, and only then; the operator's
// retry gives it a job again and it completes, paid once.
func TestCheckListsPayoutWithoutJob(t *testing.T) {
	for _, tc := range []struct {
		state  rivertype.JobState // the job's River state; "" deletes it
		listed bool
	}{
		{"discarded", true},
		{"cancelled", true},
		{"completed", true},
		{"", true},
		{"available", false},
		{"scheduled", false},
		{"retryable", false},
		{"running", false},
	} {
		t.Run(cmp.Or(string(tc.state), "deleted"), func(t *testing.T) {
			is := is.New(t)
			e := newLiveEnvJobs(t, false)
			e.fundVault(100)
			p, err := e.pay(e.destination(true, true), 10_00, "")
			is.NoErr(err)
			jobs := storetest.JobsOf(t, e.App.River, func(a payout.AdvanceArgs) bool { return a.PaymentID == p.ID })
			is.Equal(len(jobs), 1)
			var finalized *time.Time
			if tc.listed { // a finished job: River records when
				now := time.Now()
				finalized = &now
			}
			if tc.state == "" {
				_, err = e.App.River.JobDelete(e.ctx, jobs[0].ID)
			} else {
				err = e.SQL.SetJobState(jobs[0].ID, tc.state, finalized)
			}
			is.NoErr(err)

			problems, err := e.DB.Health().Check(e.ctx)
			is.NoErr(err)
			if !tc.listed {
				is.Equal(len(problems), 0)
				return
			}
			is.Equal(len(problems), 1)
			is.Equal(problems[0], "payment "+p.ID+" is "+p.Status+" and owes a step, but no job will take it (payoutd payouts retry "+p.ID+")")
			stalled, err := e.DB.Payments().StalledPayments(e.ctx)
			is.NoErr(err)
			is.Equal(len(stalled), 1) // payouts list shows it too

			err = e.DB.WithTx(e.ctx, func(tx *store.Tx) error { _, err := payout.RetryOrResume(tx, p.ID); return err },
				store.WithActor("operator:test", ""))
			is.NoErr(err)
			problems, err = e.DB.Health().Check(e.ctx)
			is.NoErr(err)
			is.Equal(len(problems), 0)
			is.NoErr(e.App.Start(e.ctx))
			p = e.settle(p.ID)
			is.Equal(p.Status, store.StatusCompleted)
			is.Equal(e.Net.Applied(p.SettlementRef), 1)
		})
	}
}
