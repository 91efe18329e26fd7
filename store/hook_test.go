package store

import (
	"context"
	"database/sql"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
)

// withoutRiver wires db the way store's own tests need: events fan out to
// nothing and jobs are recorded, not run (an unwired database refuses both).
func withoutRiver(db *DB) *recordedJobs {
	db.SetEventHook(func(*Tx, Event) error { return nil })
	j := &recordedJobs{}
	db.jobs = j
	return j
}

// recordedJobs is an Inserter that keeps what it was given.
type recordedJobs struct {
	mu   sync.Mutex
	jobs []recordedJob
}

type recordedJob struct {
	args river.JobArgs
	at   time.Time
}

func (r *recordedJobs) InsertTx(_ context.Context, _ *sql.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	j := recordedJob{args: args}
	if opts != nil {
		j.at = opts.ScheduledAt
	}
	r.jobs = append(r.jobs, j)
	return &rivertype.JobInsertResult{}, nil
}

func (r *recordedJobs) all() []recordedJob {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]recordedJob(nil), r.jobs...)
}

// TestUnwiredEventRefused: on a database nobody wired (no event hook), a
// transaction that writes an event fails and leaves nothing behind, rather
// than writing an event no webhook will ever hear of.
func TestUnwiredEventRefused(t *testing.T) {
	db, sealer := openTestDB(t)
	u := testUser(t, db, sealer)
	db.SetEventHook(nil)
	err := db.WithTx(context.Background(), func(tx *Tx) error {
		k, err := tx.People().KYCStatus(u.ID)
		if err != nil {
			return err
		}
		next := k
		next.Status = KYCInProgress
		_, err = tx.People().RecordKYCMove(KYCMove{From: k, To: next})
		return err
	})
	if !errors.Is(err, errNoEventHook) {
		t.Fatalf("got %v, want %v", err, errNoEventHook)
	}
	k, err := db.People().KYCStatus(context.Background(), u.ID)
	if err != nil {
		t.Fatal(err)
	}
	if k.Status != KYCPending {
		t.Fatalf("KYC moved to %s without its event", k.Status)
	}
}
