package store

import (
	"context"
	"database/sql"
	"errors"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/store/internal/sqlitex"
)

// notFound turns sql.ErrNoRows into an application not-found error.
func notFound(err error, code, what string) error {
	if errors.Is(err, sql.ErrNoRows) {
		return &apperr.Error{Code: code, Message: what + " not found"}
	}
	return err
}

// isUniqueViolation reports a UNIQUE or PRIMARY KEY constraint failure, by
// SQLite's extended result code, never by message text.
func isUniqueViolation(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		c := se.Code()
		return c == sqlite3.SQLITE_CONSTRAINT_UNIQUE || c == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	return false
}

// isConstraintViolation reports any constraint failure (UNIQUE, CHECK,
// NOT NULL, a trigger's RAISE(ABORT), ...): SQLite undoes the statement
// and leaves its transaction open.
func isConstraintViolation(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_CONSTRAINT
}

// IsStorageFull reports a write that failed for lack of space (a full
// disk, or a size limit on the file); nothing of it was committed.
func IsStorageFull(err error) bool { return sqlitex.IsStorageFull(err) }

// ProbeStorage commits a write that needs a fresh page, so it fails while
// the file cannot grow and succeeds once it can again.
func (g Health) ProbeStorage(ctx context.Context) error {
	db := g.db
	return db.WithTx(ctx, func(tx *Tx) error {
		if _, err := tx.exec("INSERT OR REPLACE INTO storage_probe (id, pad, at) VALUES (1, zeroblob(16384), ?)", ms(tx.now)); err != nil {
			return err
		}
		_, err := tx.exec("UPDATE storage_probe SET pad = NULL WHERE id = 1")
		return err
	})
}
