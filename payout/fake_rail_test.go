package payout_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/store"
)

// fakeRail is a settlement rail that gives each call the next answer of
// its script and records what was asked. A call the script did not
// expect fails the test.
type fakeRail struct {
	t       *testing.T
	instant bool

	mu       sync.Mutex
	submits  []submitAnswer
	statuses []statusAnswer
	calls    []string
}

type submitAnswer struct {
	ref string
	err error
}

type statusAnswer struct {
	out payout.Outcome
	err error
	// before runs before the answer is given, as something else happening
	// meanwhile on the network or in another process.
	before func()
	// finish, on a live payout's final outcome, records its envelope in
	// that state with the outcome, as the live rail does.
	finish string
}

var errRailBroken = errors.New("rail answered nonsense")

func (r *fakeRail) Submit(ctx context.Context, p store.Payment) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, "submit")
	if len(r.submits) == 0 {
		r.t.Errorf("unexpected Submit of %s (%s)", p.ID, p.Status)
		return "", fmt.Errorf("unexpected Submit")
	}
	a := r.submits[0]
	r.submits = r.submits[1:]
	return a.ref, a.err
}

func (r *fakeRail) Status(ctx context.Context, p store.Payment) (payout.Outcome, error) {
	r.mu.Lock()
	r.calls = append(r.calls, "status")
	if len(r.statuses) == 0 {
		r.mu.Unlock()
		r.t.Errorf("unexpected Status of %s (%s)", p.ID, p.Status)
		return payout.Outcome{}, fmt.Errorf("unexpected Status")
	}
	a := r.statuses[0]
	r.statuses = r.statuses[1:]
	r.mu.Unlock()
	if a.before != nil {
		a.before()
	}
	if a.finish != "" {
		ref := p.SettlementRef
		a.out.Record = func(tx *store.Tx) error {
			return tx.Chain().FinishSubmission(ref, store.SubmissionEnd{State: a.finish, Ledger: 7, Fee: 100})
		}
	}
	return a.out, a.err
}

// Instant reports what the test set: an instant rail's steps may share
// one transaction.
func (r *fakeRail) Instant() bool { return r.instant }

// asked is the calls made so far.
func (r *fakeRail) asked() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.calls...)
}

// unused reports script answers no call took.
func (r *fakeRail) unused() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.submits) + len(r.statuses)
}

// fakeSigner is a fakeRail whose submissions are signed envelopes (the
// live rail's way): Sign answers from its own script, reading the vault's
// submission mark from db as the live rail does before signing.
type fakeSigner struct {
	*fakeRail
	db    *store.DB
	signs []signAnswer
}

type signAnswer struct {
	// stale makes the answer carry a submission mark other than the
	// vault's: recording the envelope must then fail.
	stale bool
	err   error
}

func (s *fakeSigner) Sign(ctx context.Context, p store.Payment) (store.Submission, store.SubmissionMark, error) {
	s.mu.Lock()
	s.calls = append(s.calls, "sign")
	n := len(s.calls)
	if len(s.signs) == 0 {
		s.mu.Unlock()
		s.t.Errorf("unexpected Sign of %s (%s)", p.ID, p.Status)
		return store.Submission{}, store.SubmissionMark{}, fmt.Errorf("unexpected Sign")
	}
	a := s.signs[0]
	s.signs = s.signs[1:]
	s.mu.Unlock()
	if a.err != nil {
		return store.Submission{}, store.SubmissionMark{}, a.err
	}
	mark, err := s.db.Chain().SubmissionMark(ctx, p.VaultID)
	if err != nil {
		return store.Submission{}, store.SubmissionMark{}, err
	}
	if a.stale {
		mark.Recorded++
		mark.Finished++
	}
	hash := sha256.Sum256([]byte(fmt.Sprintf("%s/%d", p.ID, n)))
	sub := store.Submission{Hash: hex.EncodeToString(hash[:]), VaultID: p.VaultID, PaymentID: p.ID, Attempt: p.Attempt,
		Kind: store.SubmissionPayment, Seq: int64(n), Envelope: "AAAA", ValidUntil: time.Now().Add(2 * time.Minute)}
	return sub, mark, nil
}

func (s *fakeSigner) unused() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.submits) + len(s.statuses) + len(s.signs)
}
