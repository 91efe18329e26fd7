package kyc_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/riverqueue/river"

	"github.com/payoutd/payoutd/app"
	"github.com/payoutd/payoutd/app/apptest"
	"github.com/payoutd/payoutd/kyc"
	"github.com/payoutd/payoutd/store"
)

// world is one database wired by app.Open with no workers (jobs are
// inserted, never run) and a clock the test moves.
type world struct {
	a      *app.App
	sealer *store.Sealer
	now    atomic.Int64 // ms
}

func newWorld(t *testing.T) *world {
	w := &world{}
	w.a, w.sealer = apptest.Open(t, app.Config{})
	w.now.Store(time.Date(2026, 4, 1, 10, 0, 0, 0, time.UTC).UnixMilli())
	w.a.DB.SetClock(func() time.Time { return time.UnixMilli(w.now.Load()).UTC() })
	return w
}

func (w *world) advance(d time.Duration) { w.now.Add(d.Milliseconds()) }

func (w *world) tx(t *testing.T, f func(tx *store.Tx) error) {
	t.Helper()
	if err := w.a.DB.WithTx(context.Background(), f, store.WithActor("test", "")); err != nil {
		t.Fatal(err)
	}
}

// submitted is a user of the mode who has sent name and a document.
func (w *world) submitted(t *testing.T, live bool, name string) store.User {
	t.Helper()
	var u store.User
	w.tx(t, func(tx *store.Tx) error {
		var err error
		if u, _, err = tx.People().EnsureUser("kyc@example.com", live, name, w.sealer); err != nil {
			return err
		}
		st, err := kyc.Start(tx, u.ID, live)
		if err != nil {
			return err
		}
		if err := kyc.SaveIdentity(tx, st.Session.ID, store.KYCIdentity{FullName: name, PAN: "ABCPE1234F", DOB: "1990-04-01"}); err != nil {
			return err
		}
		_, _, err = kyc.SubmitDocument(tx, st.Session.ID, store.KYCDocument{Kind: "pan_card", Filename: "pan.pdf",
			ContentType: "application/pdf"}, []byte("%PDF-1.4"), w.sealer)
		return err
	})
	return u
}

// TestSubmissionQueuesSandboxReview: a sandbox user's document submission
// queues the provider's review, due when its first step is, in the same
// transaction; a live user's queues nothing (the operator decides).
func TestSubmissionQueuesSandboxReview(t *testing.T) {
	for _, live := range []bool{false, true} {
		t.Run(map[bool]string{false: "Sandbox", true: "Live"}[live], func(t *testing.T) {
			is := is.New(t)
			w := newWorld(t)
			at := time.UnixMilli(w.now.Load())
			u := w.submitted(t, live, "Asha Rao")
			k, err := w.a.DB.People().KYCStatus(context.Background(), u.ID)
			is.NoErr(err)
			is.Equal(k.Status, store.KYCDocsSubmitted)
			res, err := w.a.River.JobList(context.Background(), river.NewJobListParams().Kinds("sandbox_kyc_review").
				States("scheduled", "available"))
			is.NoErr(err)
			if live {
				is.Equal(len(res.Jobs), 0)
				return
			}
			is.Equal(len(res.Jobs), 1)
			is.Equal(string(res.Jobs[0].EncodedArgs), `{"userId":"`+u.ID+`"}`)
			is.True(res.Jobs[0].ScheduledAt.Equal(at.Add(kyc.SandboxPickup)))
		})
	}
}

// TestSandboxProviderPace: the sandbox provider's review job takes
// DOCS_SUBMITTED to UNDER_REVIEW after SandboxPickup and decides
// SandboxDecide later, saying each time how long to snooze; REJECT in the
// name rejects; a reader (Current) sees the step that is due, and a live
// user is left to the operator.
func TestSandboxProviderPace(t *testing.T) {
	for _, c := range []struct{ name, want string }{{"Asha Rao", store.KYCApproved}, {"Asha reject-me", store.KYCRejected}} {
		t.Run(c.want, func(t *testing.T) {
			is := is.New(t)
			w := newWorld(t)
			u := w.submitted(t, false, c.name)
			review := func() (string, time.Duration) {
				var k store.KYC
				var wait time.Duration
				w.tx(t, func(tx *store.Tx) (err error) { k, wait, err = kyc.SandboxReview(tx, u.ID); return err })
				return k.Status, wait
			}
			status, wait := review()
			is.Equal(status, store.KYCDocsSubmitted) // not yet due
			is.Equal(wait, kyc.SandboxPickup)

			w.advance(kyc.SandboxPickup)
			k, err := kyc.Current(context.Background(), w.a.DB, u.ID, "req_1") // a reader takes the due step
			is.NoErr(err)
			is.Equal(k.Status, store.KYCUnderReview)
			status, wait = review()
			is.Equal(status, store.KYCUnderReview)
			is.Equal(wait, kyc.SandboxDecide)

			w.advance(kyc.SandboxDecide - time.Millisecond)
			status, wait = review()
			is.Equal(status, store.KYCUnderReview)
			is.Equal(wait, time.Millisecond)
			w.advance(time.Millisecond)
			status, wait = review()
			is.Equal(status, c.want)
			is.Equal(wait, time.Duration(0))
			status, _ = review()
			is.Equal(status, c.want) // nothing further
		})
	}
	t.Run("Live", func(t *testing.T) {
		is := is.New(t)
		w := newWorld(t)
		u := w.submitted(t, true, "Asha Rao")
		w.advance(time.Hour)
		k, err := kyc.Current(context.Background(), w.a.DB, u.ID, "")
		is.NoErr(err)
		is.Equal(k.Status, store.KYCDocsSubmitted)
		var wait time.Duration
		w.tx(t, func(tx *store.Tx) (err error) { k, wait, err = kyc.SandboxReview(tx, u.ID); return err })
		is.Equal(k.Status, store.KYCDocsSubmitted)
		is.Equal(wait, time.Duration(0))
	})
}
