package store

import (
	"context"
	"database/sql"
)

// queryRow runs a read-only query on the read pool. Reads outside a
// transaction go through here (and the typed readers beside each
// aggregate); every write goes through WithTx.
func (db *DB) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	return db.r.QueryRowContext(ctx, query, args...)
}

// query runs a read-only query on the read pool.
func (db *DB) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return db.r.QueryContext(ctx, query, args...)
}

// Ping checks that the read pool can query the file.
func (db *DB) Ping(ctx context.Context) error {
	var one int
	return db.r.QueryRowContext(ctx, "SELECT 1").Scan(&one)
}
