package kyc

import (
	"slices"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/store"
)

var allStatuses = []string{store.KYCPending, store.KYCInProgress, store.KYCDocsSubmitted, store.KYCUnderReview,
	store.KYCApproved, store.KYCRejected}

// TestNextMatrix tries every (from, to) pair: the moves of the KYC graph
// give the record to write (a resubmission counts an attempt, a reason only
// on REJECTED) and the moves it allows after; every other pair, and a
// resubmission with none left, is ERR_INVALID_STATE.
func TestNextMatrix(t *testing.T) {
	legal := map[string]bool{
		"PENDING>IN_PROGRESS": true, "IN_PROGRESS>DOCS_SUBMITTED": true, "DOCS_SUBMITTED>UNDER_REVIEW": true,
		"UNDER_REVIEW>APPROVED": true, "UNDER_REVIEW>REJECTED": true, "REJECTED>DOCS_SUBMITTED": true,
	}
	froms := append(slices.Clone(allStatuses), "REJECTED(exhausted)")
	for _, from := range froms {
		for _, to := range allStatuses {
			t.Run(from+">"+to, func(t *testing.T) {
				is := is.New(t)
				k := store.KYC{UserID: "usr_1", Status: from, Attempts: 1, Reason: "earlier"}
				if from == "REJECTED(exhausted)" {
					k.Status, k.Attempts = store.KYCRejected, MaxAttempts
				}
				m, err := Next(k, to, "why")
				if !legal[k.Status+">"+to] || k.Attempts >= MaxAttempts {
					is.Equal(apperr.Code(err), apperr.ErrInvalidState)
					return
				}
				is.NoErr(err)
				is.Equal(m.From, k)
				is.Equal(m.To.Status, to)
				wantAttempts := 1
				if from == store.KYCRejected {
					wantAttempts = 2 // a resubmission is counted
				}
				is.Equal(m.To.Attempts, wantAttempts)
				is.Equal(m.To.Reason != "", to == store.KYCRejected) // a reason only on REJECTED
				is.Equal(m.AllowedNext, Allowed(m.To))
			})
		}
	}
}

func TestAllowed(t *testing.T) {
	for _, c := range []struct {
		k    store.KYC
		want []string
	}{
		{store.KYC{Status: store.KYCPending}, []string{store.KYCInProgress}},
		{store.KYC{Status: store.KYCUnderReview}, []string{store.KYCApproved, store.KYCRejected}},
		{store.KYC{Status: store.KYCApproved}, []string{}},
		{store.KYC{Status: store.KYCRejected, Attempts: MaxAttempts - 1}, []string{store.KYCDocsSubmitted}},
		{store.KYC{Status: store.KYCRejected, Attempts: MaxAttempts}, []string{}},
	} {
		if got := Allowed(c.k); !slices.Equal(got, c.want) || got == nil {
			t.Errorf("Allowed(%s, %d) = %#v, want %#v", c.k.Status, c.k.Attempts, got, c.want)
		}
	}
	if got := ResubmitsLeft(store.KYC{Attempts: MaxAttempts + 1}); got != 0 {
		t.Errorf("ResubmitsLeft past the limit = %d", got)
	}
}

// TestSandboxStep: the provider picks a submission up after SandboxPickup
// and decides SandboxDecide after that; before then it says how long to
// wait, and a record it does not review waits for nothing.
func TestSandboxStep(t *testing.T) {
	for _, c := range []struct {
		status string
		since  time.Duration
		to     string
		wait   time.Duration
	}{
		{store.KYCDocsSubmitted, 0, "", SandboxPickup},
		{store.KYCDocsSubmitted, SandboxPickup - time.Millisecond, "", time.Millisecond},
		{store.KYCDocsSubmitted, SandboxPickup, store.KYCUnderReview, 0},
		{store.KYCUnderReview, SandboxDecide - time.Millisecond, "", time.Millisecond},
		{store.KYCUnderReview, SandboxDecide, Decide, 0},
		{store.KYCUnderReview, time.Hour, Decide, 0},
		{store.KYCInProgress, time.Hour, "", 0},
		{store.KYCApproved, time.Hour, "", 0},
		{store.KYCRejected, time.Hour, "", 0},
	} {
		to, wait := SandboxStep(c.status, c.since)
		if to != c.to || wait != c.wait {
			t.Errorf("SandboxStep(%s, %s) = %q, %s; want %q, %s", c.status, c.since, to, wait, c.to, c.wait)
		}
	}
}

func TestSandboxDecision(t *testing.T) {
	for _, c := range []struct {
		id   store.KYCIdentity
		want bool
	}{
		{store.KYCIdentity{FullName: "Asha Rao", PAN: "ABCPE1234F"}, true},
		{store.KYCIdentity{FullName: "REJECT", PAN: "ABCPE1234F"}, false},
		{store.KYCIdentity{FullName: "Mr Rejected", PAN: "ABCPE1234F"}, false},
		{store.KYCIdentity{FullName: "Asha Rao", PAN: "REJECT1234"}, false},
	} {
		ok, reason := SandboxDecision(c.id)
		if ok != c.want || (reason == "") != c.want {
			t.Errorf("SandboxDecision(%+v) = %v, %q; want %v", c.id, ok, reason, c.want)
		}
	}
}
