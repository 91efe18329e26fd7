package store

import (
	"context"
	"database/sql"
)

// QueryRowContext runs a read-only query on the read pool. Reads outside a
// transaction go through here (and the typed readers beside each
// aggregate); every write goes through WithTx.
func (db *DB) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return db.r.QueryRowContext(ctx, query, args...)
}

// QueryContext runs a read-only query on the read pool.
func (db *DB) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return db.r.QueryContext(ctx, query, args...)
}

// QueryRow is QueryRowContext without a context, for tools and tests.
func (db *DB) QueryRow(query string, args ...any) *sql.Row {
	return db.r.QueryRowContext(context.Background(), query, args...)
}

// Query is QueryContext without a context, for tools and tests.
func (db *DB) Query(query string, args ...any) (*sql.Rows, error) {
	return db.r.QueryContext(context.Background(), query, args...)
}

// Ping checks that the read pool can reach the file.
func (db *DB) Ping(ctx context.Context) error { return db.r.PingContext(ctx) }
