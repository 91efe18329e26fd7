package sqlitex

import (
	"context"
	"database/sql"
)

// Tx is one caller's transaction inside a batch: a savepoint on the write
// connection that commits, with the batch, or rolls back alone.
type Tx struct {
	sql    *sql.Tx
	direct directExecer
	ctx    context.Context
}

// Context is the transaction's context (not cancellable: once started a
// transaction runs to its end).
func (tx *Tx) Context() context.Context { return tx.ctx }

// ExecContext runs a statement in the transaction.
func (tx *Tx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return tx.direct.ExecContext(ctx, query, args...)
}

// QueryRowContext runs a query in the transaction.
func (tx *Tx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return tx.sql.QueryRowContext(ctx, query, args...)
}

// QueryContext runs a query in the transaction.
func (tx *Tx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return tx.sql.QueryContext(ctx, query, args...)
}

// SQL is the transaction as database/sql sees it, for libraries that take
// a *sql.Tx (River's InsertTx).
func (tx *Tx) SQL() *sql.Tx { return tx.sql }
