package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/rivertype"

	"github.com/payoutd/payoutd/store"
)

// River's tables are River's, in tests as in payoutd: a test reads jobs
// through River's client (Jobs) or, on a file a started payoutd holds,
// its driver (JobsOfKind), and arranges what a process that ended
// mid-job leaves behind through the driver's executor, never by SQL of
// its own on River's tables.

// Jobs lists every job params selects, page after page, through River's
// client.
func Jobs(t testing.TB, client *store.RiverClient, params *river.JobListParams) []*rivertype.JobRow {
	t.Helper()
	const page = 1000
	params = params.First(page)
	var jobs []*rivertype.JobRow
	for {
		res, err := client.JobList(context.Background(), params)
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, res.Jobs...)
		if len(res.Jobs) < page {
			return jobs
		}
		params = params.After(res.LastCursor)
	}
}

// JobsOf lists the jobs of T's kind whose args keep accepts, in any of
// states (in every state if none), through River's client.
func JobsOf[T river.JobArgs](t testing.TB, client *store.RiverClient, keep func(T) bool, states ...rivertype.JobState) []*rivertype.JobRow {
	t.Helper()
	var kind T
	params := river.NewJobListParams().Kinds(kind.Kind())
	if len(states) > 0 {
		params = params.States(states...)
	}
	return Where(t, Jobs(t, client, params), keep)
}

// Where keeps the jobs whose args, decoded as T (the args type their kind
// is inserted with), keep accepts.
func Where[T any](t testing.TB, jobs []*rivertype.JobRow, keep func(T) bool) []*rivertype.JobRow {
	t.Helper()
	var kept []*rivertype.JobRow
	for _, j := range jobs {
		var args T
		if err := json.Unmarshal(j.EncodedArgs, &args); err != nil {
			t.Fatalf("job %d (%s) args: %v", j.ID, j.Kind, err)
		}
		if keep(args) {
			kept = append(kept, j)
		}
	}
	return kept
}

// JobsOfKind lists the jobs of the given kinds in id order through River's
// driver: for a file another process holds, where this one has no River
// client.
func (d *DB) JobsOfKind(kinds ...string) ([]*rivertype.JobRow, error) {
	return d.conn.River().JobGetByKindMany(context.Background(), &riverdriver.JobGetByKindManyParams{Kind: kinds})
}

// LeaveRunning leaves the job as a process that ended during its
// attempt'th run, started at since, leaves it: running, with no one to
// finish it.
func (d *DB) LeaveRunning(id int64, attempt int, since time.Time) error {
	_, err := d.conn.River().JobUpdateFull(context.Background(), &riverdriver.JobUpdateFullParams{ID: id,
		StateDoUpdate: true, State: rivertype.JobStateRunning,
		AttemptDoUpdate: true, Attempt: attempt,
		AttemptedAtDoUpdate: true, AttemptedAt: &since})
	return err
}

// SetJobState puts the job in state, finalized at finalized (nil for a
// state River has not finished the job in).
func (d *DB) SetJobState(id int64, state rivertype.JobState, finalized *time.Time) error {
	_, err := d.conn.River().JobUpdateFull(context.Background(), &riverdriver.JobUpdateFullParams{ID: id,
		StateDoUpdate: true, State: state,
		FinalizedAtDoUpdate: true, FinalizedAt: finalized})
	return err
}

// LeaveLeader records leaderID as River's elected leader from elected
// until expires, as a process that ended while leading leaves it.
func (d *DB) LeaveLeader(leaderID string, elected, expires time.Time) error {
	_, err := d.conn.River().LeaderInsert(context.Background(), &riverdriver.LeaderInsertParams{
		LeaderID: leaderID, ElectedAt: &elected, ExpiresAt: &expires})
	return err
}

// Leader is the id of River's elected leader on record, "" if none.
func (d *DB) Leader() (string, error) {
	l, err := d.conn.River().LeaderGetElectedLeader(context.Background(), &riverdriver.LeaderGetElectedLeaderParams{})
	if errors.Is(err, rivertype.ErrNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return l.LeaderID, nil
}
