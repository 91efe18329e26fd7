package store

import (
	"context"
	"database/sql"
	"time"
)

// reader runs read queries: the read pool (*DB) or a Snapshot's transaction.
type reader interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Snapshot reads in one read-only transaction: every read through it sees
// the same committed state (SQLite's WAL gives a transaction one snapshot),
// so figures read together — totals, what they leave out, asOf — always
// describe the same moment.
type Snapshot struct {
	ctx context.Context
	q   *sql.Tx
	now time.Time
}

// Snapshot runs fn with a Snapshot and ends it when fn returns.
func (db *DB) Snapshot(ctx context.Context, fn func(s *Snapshot) error) error {
	q, err := db.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer q.Rollback()
	return fn(&Snapshot{ctx: ctx, q: q, now: db.Now().UTC()})
}

// Now is the clock when the snapshot began.
func (s *Snapshot) Now() time.Time { return s.now }
