package store

import (
	"context"
	"database/sql"
	"sync"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivertype"
)

// A worker may complete its job in the transaction that does the job's
// work (CompleteJob), so the job is done exactly when that work commits.
// River's completer would then still try to complete it once the worker
// returns: an UPDATE that finds the job no longer running, a second
// statement reading its metadata, and a transaction of their own on the
// single writer. The driver payoutd hands River skips those.

// riverDriver is riversqlite's driver on the write connection whose
// executor leaves out the completions already made in a transaction, and
// whose notifications stay in this process (river_notify.go).
type riverDriver struct {
	*riversqlite.Driver
	done *completedJobs
	hub  *notices
}

func (d *riverDriver) GetExecutor() riverdriver.Executor {
	return &completingExecutor{Executor: d.Driver.GetExecutor(), done: d.done, hub: d.hub}
}

func (d *riverDriver) UnwrapExecutor(tx *sql.Tx) riverdriver.ExecutorTx {
	return &notifyingTx{ExecutorTx: d.Driver.UnwrapExecutor(tx), hub: d.hub}
}

func (d *riverDriver) GetListener(p *riverdriver.GetListenenerParams) riverdriver.Listener {
	return newListener(d.hub, p.Schema)
}

// completedJobs are the jobs completed in committed transactions that
// River's completer has not yet been asked to complete.
type completedJobs struct {
	mu  sync.Mutex
	ids map[int64]struct{}
}

func (c *completedJobs) add(ids []int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ids == nil {
		c.ids = map[int64]struct{}{}
	}
	for _, id := range ids {
		c.ids[id] = struct{}{}
	}
}

// take reports whether id was completed in a transaction, and forgets it.
func (c *completedJobs) take(id int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.ids[id]
	delete(c.ids, id)
	return ok
}

type completingExecutor struct {
	riverdriver.Executor
	done *completedJobs
	hub  *notices
}

func (e *completingExecutor) Begin(ctx context.Context) (riverdriver.ExecutorTx, error) {
	tx, err := e.Executor.Begin(ctx)
	if err != nil {
		return nil, err
	}
	return &notifyingTx{ExecutorTx: tx, hub: e.hub}, nil
}

func (e *completingExecutor) NotifyMany(_ context.Context, p *riverdriver.NotifyManyParams) error {
	e.hub.send(p.Topic, p.Payload)
	return nil
}

// JobSetStateIfRunningMany is how River's completer records what its
// workers returned; a completion already committed is left out.
func (e *completingExecutor) JobSetStateIfRunningMany(ctx context.Context, p *riverdriver.JobSetStateIfRunningManyParams) ([]*rivertype.JobRow, error) {
	var keep []int
	for i, id := range p.ID {
		if e.done.take(id) && p.State[i] == rivertype.JobStateCompleted {
			continue
		}
		keep = append(keep, i)
	}
	if len(keep) == len(p.ID) {
		return e.Executor.JobSetStateIfRunningMany(ctx, p)
	}
	if len(keep) == 0 {
		return nil, nil
	}
	q := &riverdriver.JobSetStateIfRunningManyParams{Now: p.Now, Schema: p.Schema}
	for _, i := range keep {
		q.ID = append(q.ID, p.ID[i])
		q.Attempt = append(q.Attempt, p.Attempt[i])
		q.ErrData = append(q.ErrData, p.ErrData[i])
		q.FinalizedAt = append(q.FinalizedAt, p.FinalizedAt[i])
		q.MetadataDoMerge = append(q.MetadataDoMerge, p.MetadataDoMerge[i])
		q.MetadataUpdates = append(q.MetadataUpdates, p.MetadataUpdates[i])
		q.ScheduledAt = append(q.ScheduledAt, p.ScheduledAt[i])
		q.State = append(q.State, p.State[i])
	}
	return e.Executor.JobSetStateIfRunningMany(ctx, q)
}

// CompleteJob completes job, which the calling worker is running, in tx
// (River's JobCompleteTx): it is done if and only if tx commits. ctx is
// the worker's. On error nothing is written and River completes the job
// as usual once the worker returns.
func CompleteJob[T river.JobArgs](tx *Tx, job *river.Job[T]) error {
	if tx.broken != nil {
		return tx.broken // see Tx.release
	}
	if _, err := river.JobCompleteTx[*riverDriver, *sql.Tx](tx.ctx, tx.x.SQL(), job); err != nil {
		return err
	}
	tx.completed = append(tx.completed, job.ID)
	return nil
}
