package store

import (
	"context"
	"testing"
	"time"

	"github.com/matryer/is"
)

// TestSubmissionQueuesSandboxReview: a sandbox user's document submission
// queues the provider's review, due when its first step is, in the same
// transaction; a live user's queues nothing (the operator decides).
func TestSubmissionQueuesSandboxReview(t *testing.T) {
	for _, live := range []bool{false, true} {
		t.Run(map[bool]string{false: "Sandbox", true: "Live"}[live], func(t *testing.T) {
			is := is.New(t)
			db, sealer := openTestDB(t)
			jobs := db.jobs.(*recordedJobs)
			var u User
			var at time.Time
			err := db.WithTx(context.Background(), func(tx *Tx) error {
				var err error
				if u, _, err = tx.EnsureUser("docs@example.com", live, "Asha Rao", sealer); err != nil {
					return err
				}
				st, err := tx.StartKYC(u.ID, live)
				if err != nil {
					return err
				}
				if err := tx.SaveKYCIdentity(st.Session.ID, KYCIdentity{FullName: "Asha Rao", PAN: "ABCPE1234F", DOB: "1990-04-01"}); err != nil {
					return err
				}
				at = tx.Now()
				_, _, err = tx.SubmitKYCDocument(st.Session.ID, KYCDocument{Kind: "pan_card", Filename: "pan.pdf", ContentType: "application/pdf"}, []byte("%PDF-1.4"), sealer)
				return err
			})
			is.NoErr(err)
			var reviews []recordedJob
			for _, j := range jobs.all() {
				if _, ok := j.args.(SandboxKYCReviewArgs); ok {
					reviews = append(reviews, j)
				}
			}
			if live {
				is.Equal(len(reviews), 0)
				return
			}
			is.Equal(len(reviews), 1)
			is.Equal(reviews[0].args, SandboxKYCReviewArgs{UserID: u.ID})
			is.Equal(reviews[0].at, at.Add(SandboxReviewPickup))
		})
	}
}
