// Package testdoor hands store/storetest raw SQL on an open *store.DB,
// which store exports to no other package: store sets Of when it is
// loaded, and only packages under store/ can import this one.
package testdoor

import (
	"context"
	"database/sql"

	"github.com/riverqueue/river/riverdriver"
)

// Conn is raw SQL on one database.
type Conn interface {
	// Exec runs a statement in a write transaction of its own.
	Exec(ctx context.Context, query string, args ...any) (sql.Result, error)
	// Setting runs a statement outside any transaction, on the write
	// connection where there is one.
	Setting(ctx context.Context, query string) error
	// QueryRow and Query read outside any transaction.
	QueryRow(ctx context.Context, query string, args ...any) *sql.Row
	Query(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	// River is River's driver's executor on the database, on the write
	// connection where there is one.
	River() riverdriver.Executor
}

// Of returns the raw SQL of db, which must be a *store.DB.
var Of func(db any) Conn

// TraceWrites calls fn with every statement the write connection of db (a
// *store.DB) runs from now on; nil stops it.
var TraceWrites func(db any, fn func(query string))
