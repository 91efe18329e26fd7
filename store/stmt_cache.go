package store

import (
	"context"
	"database/sql"
	"sync"
)

// Statement cache. Profiles of the payout pipeline showed a quarter of all
// CPU in SQLite's SQL parser: database/sql re-prepares every ExecContext. The
// write pool has exactly one connection, so a statement prepared once on it
// can be bound to every transaction (sql.Tx.StmtContext reuses the driver
// statement on the same connection) and the parse happens once per process.

// maxCachedStmts bounds the cache against dynamically built SQL.
const maxCachedStmts = 512

type stmtCache struct {
	mu     sync.Mutex
	stmts  map[string]*sql.Stmt
	wanted map[string]bool
}

// get returns the prepared statement for query, or nil after noting that it
// is wanted. It never prepares: inside a transaction the only connection is
// taken, and preparing through the pool would wait for itself.
func (c *stmtCache) get(query string) *sql.Stmt {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.stmts[query]; ok {
		return s
	}
	if len(c.stmts)+len(c.wanted) < maxCachedStmts {
		if c.wanted == nil {
			c.wanted = map[string]bool{}
		}
		c.wanted[query] = true
	}
	return nil
}

// prepareWanted prepares the statements noted since the last call; the
// committer calls it between batches, when the connection is free.
func (c *stmtCache) prepareWanted(ctx context.Context, db *sql.DB) {
	c.mu.Lock()
	wanted := c.wanted
	c.wanted = nil
	c.mu.Unlock()
	for q := range wanted {
		s, err := db.PrepareContext(ctx, q)
		if err != nil {
			continue // the uncached path keeps working and reports errors
		}
		c.mu.Lock()
		if c.stmts == nil {
			c.stmts = map[string]*sql.Stmt{}
		}
		c.stmts[q] = s
		c.mu.Unlock()
	}
}

func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, s := range c.stmts {
		s.Close()
	}
	c.stmts = nil
}

// stmt returns the cached statement bound to this transaction, or nil.
func (tx *Tx) stmt(query string) *sql.Stmt {
	if tx.cache == nil {
		return nil
	}
	s := tx.cache.get(query)
	if s == nil {
		return nil
	}
	return tx.Tx.StmtContext(tx.ctx, s)
}

// ExecContext runs a statement in the transaction through the cache.
func (tx *Tx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if s := tx.stmt(query); s != nil {
		return s.ExecContext(ctx, args...)
	}
	return tx.Tx.ExecContext(ctx, query, args...)
}

// QueryContext runs a query in the transaction through the cache.
func (tx *Tx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if s := tx.stmt(query); s != nil {
		return s.QueryContext(ctx, args...)
	}
	return tx.Tx.QueryContext(ctx, query, args...)
}

// QueryRowContext runs a one-row query in the transaction through the cache.
func (tx *Tx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if s := tx.stmt(query); s != nil {
		return s.QueryRowContext(ctx, args...)
	}
	return tx.Tx.QueryRowContext(ctx, query, args...)
}

// readStmts caches statements prepared on the read pool; database/sql
// prepares each lazily on every pooled connection and keeps it there, so hot
// reads (auth, idempotency, the pipeline's state reads) skip the SQL parser.
type readStmts struct{ m sync.Map } // query → *sql.Stmt

func (db *DB) readStmt(ctx context.Context, query string) *sql.Stmt {
	if s, ok := db.rstmts.m.Load(query); ok {
		return s.(*sql.Stmt)
	}
	s, err := db.R.PrepareContext(ctx, query)
	if err != nil {
		return nil // the plain path reports the error
	}
	if prev, loaded := db.rstmts.m.LoadOrStore(query, s); loaded {
		s.Close()
		return prev.(*sql.Stmt)
	}
	return s
}

// readRow runs a one-row query on the read pool through the cache.
func (db *DB) readRow(ctx context.Context, query string, args ...any) *sql.Row {
	if s := db.readStmt(ctx, query); s != nil {
		return s.QueryRowContext(ctx, args...)
	}
	return db.R.QueryRowContext(ctx, query, args...)
}
