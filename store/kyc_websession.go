package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// WebSessions stores the hosted KYC page's browser sessions (an scs.CtxStore)
// in the sessions table, whose layout is scs's sqlite3store one (expiry as a
// Julian day). It is written here rather than taken from sqlite3store so its
// writes go through WithTx (the one writer, group commit) and its reads use
// the read pool, with no cleanup goroutine of its own.
type WebSessions struct{ DB *DB }

// julian converts a time to the Julian day number SQLite's julianday() uses.
// It is a timestamp, not money, so float64 is the column's own type.
func julian(t time.Time) float64 { return float64(t.UnixMilli())/86_400_000 + 2_440_587.5 }

// FindCtx returns a live session's data; an unknown or expired token is not
// found, never an error.
func (w WebSessions) FindCtx(ctx context.Context, token string) ([]byte, bool, error) {
	var b []byte
	err := w.DB.r.QueryRowContext(ctx, "SELECT data FROM sessions WHERE token = ? AND expiry > ?", token, julian(w.DB.Now())).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	return b, err == nil, err
}

// CommitCtx drops expired sessions and saves this one, so the table needs
// no background sweeper.
func (w WebSessions) CommitCtx(ctx context.Context, token string, b []byte, expiry time.Time) error {
	return w.DB.WithTx(ctx, func(tx *Tx) error {
		if _, err := tx.exec("DELETE FROM sessions WHERE expiry <= ?", julian(tx.now)); err != nil {
			return err
		}
		_, err := tx.exec("REPLACE INTO sessions (token, data, expiry) VALUES (?, ?, ?)", token, b, julian(expiry))
		return err
	})
}

// DeleteCtx removes a session; an unknown token is not an error.
func (w WebSessions) DeleteCtx(ctx context.Context, token string) error {
	return w.DB.WithTx(ctx, func(tx *Tx) error {
		_, err := tx.exec("DELETE FROM sessions WHERE token = ?", token)
		return err
	})
}

// Find, Commit and Delete complete scs.Store for callers without a context.
func (w WebSessions) Find(token string) ([]byte, bool, error) {
	return w.FindCtx(context.Background(), token)
}

// Commit is CommitCtx without a context.
func (w WebSessions) Commit(token string, b []byte, expiry time.Time) error {
	return w.CommitCtx(context.Background(), token, b, expiry)
}

// Delete is DeleteCtx without a context.
func (w WebSessions) Delete(token string) error { return w.DeleteCtx(context.Background(), token) }
