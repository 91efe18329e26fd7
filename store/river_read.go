package store

import (
	"context"
	"database/sql"
	"encoding/json"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivertype"
)

// River's tables are River's: payoutd finds and counts jobs through its
// client (listing by kind and state, reading args) and its driver's
// executor (counts by state), never by SQL of its own on them, so a new
// River release may change its schema under payoutd.

// liveJobStates are the states of a job River will still run.
var liveJobStates = []rivertype.JobState{rivertype.JobStateAvailable, rivertype.JobStatePending,
	rivertype.JobStateRunning, rivertype.JobStateRetryable, rivertype.JobStateScheduled}

// jobPage is how many jobs one list call reads.
const jobPage = 10_000

// readExecutor is River's driver executor on the read pool.
func (db *DB) readExecutor() riverdriver.Executor { return riversqlite.New(db.r).GetExecutor() }

// listJobs calls each for every job params selects, in id order, reading
// them in one snapshot with q (a read transaction).
func (db *DB) listJobs(ctx context.Context, q *sql.Tx, params *river.JobListParams, each func(*rivertype.JobRow) error) error {
	client, err := db.jobLister()
	if err != nil {
		return err
	}
	params = params.First(jobPage)
	for {
		page, err := client.JobListTx(ctx, q, params)
		if err != nil {
			return err
		}
		for _, j := range page.Jobs {
			if err := each(j); err != nil {
				return err
			}
		}
		if len(page.Jobs) < jobPage {
			return nil
		}
		params = params.After(page.LastCursor)
	}
}

// advancePaymentID is the payout an advance job moves, read from its args.
func advancePaymentID(j *rivertype.JobRow) string {
	var args struct {
		PaymentID string `json:"paymentId"`
	}
	if json.Unmarshal(j.EncodedArgs, &args) != nil {
		return ""
	}
	return args.PaymentID
}

// aliveAdvance is the set of payouts an advance job will still take, read
// in q's snapshot.
func (db *DB) aliveAdvance(ctx context.Context, q *sql.Tx) (map[string]bool, error) {
	alive := map[string]bool{}
	err := db.listJobs(ctx, q, river.NewJobListParams().Kinds(AdvanceJobKind).States(liveJobStates...),
		func(j *rivertype.JobRow) error {
			alive[advancePaymentID(j)] = true
			return nil
		})
	return alive, err
}
