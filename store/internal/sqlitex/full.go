package sqlitex

import (
	"errors"
	"fmt"
	"syscall"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// IsStorageFull reports a write that failed for lack of space: SQLite's
// SQLITE_FULL (the file system said ENOSPC while SQLite wrote, or the file
// reached max_page_count), or ENOSPC from a write of the committer's own
// (the WAL fsync). Nothing of such a transaction was committed.
func IsStorageFull(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_FULL {
		return true
	}
	return errors.Is(err, syscall.ENOSPC)
}

// rollbackFailed is a batch's error when one transaction's savepoint could
// not be rolled back. SQLite itself rolls back the whole transaction on
// SQLITE_FULL in a statement without a statement journal (a one-row
// INSERT), taking the savepoint with it; then every transaction of the
// batch failed for lack of space, and the error says so.
func rollbackFailed(cause, err error) error {
	if IsStorageFull(cause) {
		return fmt.Errorf("rollback to savepoint: %v: %w", err, cause)
	}
	return fmt.Errorf("rollback to savepoint: %w", err)
}
