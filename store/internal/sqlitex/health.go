package sqlitex

import (
	"errors"
	"sync/atomic"
	"syscall"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// WriteHealth is what the committer last saw of the disk: when a write
// last became durable, and when one last failed because the file or the
// disk refused it (read-only, I/O error, full), with that error. Failures
// of a transaction's own making (a constraint, a caller's error) say
// nothing about the disk and are not kept.
type WriteHealth struct {
	Landed, Failed time.Time
	Err            error
	Reason         string // Err's cause in a few words, without paths or SQL
}

type writeHealth struct {
	landed atomic.Int64 // unix nanoseconds
	failed atomic.Pointer[failure]
}

type failure struct {
	at     time.Time
	err    error
	reason string
}

// note records the verdict a caller of WithTx was given; broken is the
// committer refusing writes after a failed WAL fsync.
func (h *writeHealth) note(err error, broken bool) {
	switch {
	case err == nil:
		h.landed.Store(time.Now().UnixNano())
	case broken:
		h.failed.Store(&failure{time.Now(), err, "the write-ahead log could not be synced to disk; restart payoutd once the disk is sound"})
	case IsStorageFault(err):
		h.failed.Store(&failure{time.Now(), err, faultReason(err)})
	}
}

// WriteHealth reports the committer's last durable write and last storage
// failure; both are zero until one happens.
func (db *DB) WriteHealth() WriteHealth {
	if db.group == nil {
		return WriteHealth{}
	}
	var out WriteHealth
	if n := db.group.health.landed.Load(); n != 0 {
		out.Landed = time.Unix(0, n)
	}
	if f := db.group.health.failed.Load(); f != nil {
		out.Failed, out.Err, out.Reason = f.at, f.err, f.reason
	}
	return out
}

// faultReason says in a few words why a storage fault refused a write,
// without the paths and SQL its error carries.
func faultReason(err error) string {
	var se *sqlite.Error
	code := 0
	if errors.As(err, &se) {
		code = se.Code() & 0xff
	}
	switch {
	case code == sqlite3.SQLITE_READONLY || errors.Is(err, syscall.EROFS):
		return "the database is read-only"
	case code == sqlite3.SQLITE_FULL || errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT):
		return "the disk is full"
	case code == sqlite3.SQLITE_CORRUPT || code == sqlite3.SQLITE_NOTADB:
		return "the database file is damaged"
	case code == sqlite3.SQLITE_CANTOPEN:
		return "the database file cannot be opened"
	default:
		return "disk I/O error"
	}
}

// IsStorageFault reports an error that means the file or the disk under
// it refuses writes: SQLite's I/O, read-only, full, can't-open, corrupt
// and not-a-database results, or the same from a system call of the
// committer's own (the WAL fsync).
func IsStorageFault(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_IOERR, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_FULL, sqlite3.SQLITE_CANTOPEN,
			sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
			return true
		}
		return false
	}
	for _, e := range []error{syscall.EIO, syscall.EROFS, syscall.ENOSPC, syscall.EDQUOT} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
