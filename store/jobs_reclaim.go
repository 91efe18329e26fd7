package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/rivertype"
)

// reclaimBatch is how many orphaned jobs one pass of ReclaimJobs moves.
const reclaimBatch = 1000

// ReclaimJobs takes over what a process that ended without stopping (a
// crash, a kill, a power cut, or the process whose file a backup copied)
// left in River's tables. Its leadership is ended: River's maintenance
// (snoozed and retried jobs coming due, rescues) runs on the leader only,
// and waiting out the dead process's lease would hold every snoozed payout
// for it. The jobs it was running are made available at once, or discarded
// when that was their last attempt, as River's rescuer would do after
// RescueStuckJobsAfter and its next pass (up to a minute later).
//
// Only the process holding the server's lock may call it, before its own
// workers start: the lock proves no other process runs jobs on this file,
// so every running job and every leader on record is a dead process's. It
// returns how many jobs it moved.
func (db *DB) ReclaimJobs(ctx context.Context) (int, error) {
	exec := db.riverDriver().GetExecutor()
	leader, err := exec.LeaderGetElectedLeader(ctx, &riverdriver.LeaderGetElectedLeaderParams{})
	switch {
	case err == nil:
		if _, err := exec.LeaderResign(ctx, &riverdriver.LeaderResignParams{LeaderID: leader.LeaderID, ElectedAt: leader.ElectedAt}); err != nil {
			return 0, fmt.Errorf("end the previous process's leadership: %w", err)
		}
	case !errors.Is(err, rivertype.ErrNotFound):
		return 0, fmt.Errorf("read River's leader: %w", err)
	}
	moved, last := 0, int64(0)
	for {
		now := db.Now().UTC()
		horizon := now.Add(time.Second)
		stuck, err := exec.JobGetStuck(ctx, &riverdriver.JobGetStuckParams{AfterID: last, Max: reclaimBatch, StuckHorizon: horizon})
		if err != nil {
			return moved, fmt.Errorf("read jobs left running: %w", err)
		}
		if len(stuck) == 0 {
			return moved, nil
		}
		last = stuck[len(stuck)-1].ID // in id order
		p := &riverdriver.JobRescueManyParams{StuckHorizon: horizon}
		for _, job := range stuck {
			why, err := json.Marshal(rivertype.AttemptError{At: now, Attempt: job.Attempt,
				Error: "the process running this job ended without finishing it; taken over at start"})
			if err != nil {
				return moved, err
			}
			state, finalized := rivertype.JobStateAvailable, (*time.Time)(nil)
			if job.Attempt >= job.MaxAttempts {
				state, finalized = rivertype.JobStateDiscarded, &now
			}
			p.ID = append(p.ID, job.ID)
			p.Error = append(p.Error, why)
			p.FinalizedAt = append(p.FinalizedAt, finalized)
			p.ScheduledAt = append(p.ScheduledAt, now)
			p.State = append(p.State, string(state))
		}
		if _, err := exec.JobRescueMany(ctx, p); err != nil {
			return moved, fmt.Errorf("make jobs left running available: %w", err)
		}
		moved += len(stuck)
	}
}
