package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/payoutd/payoutd/store/internal/filelock"
	"github.com/payoutd/payoutd/store/internal/sqlitex"
)

// Access is what a process may do to the database file it locks. Every
// process that opens the file takes part in one locking scheme on the file
// itself (store/internal/filelock), so processes that reach it by
// different paths see each other whatever each was given.
type Access int

const (
	// Serve is the one server of the file (serve, migrate): it may create
	// the file and migrates it, and no other server runs on it by any
	// path, this release or the one before.
	Serve Access = iota
	// Write is a command beside the server (keys, review, kyc): the same
	// path only, and it never creates or migrates the file.
	Write
	// Read opens the file read-only (check, payouts list): nothing is
	// written to it, whatever the command does, and a file at another
	// schema version is refused as for Write.
	Read
	// Copy is Read at any schema version: backup copies an older file as
	// it is.
	Copy
)

// ReadOnly reports an access that writes nothing to the file.
func (a Access) ReadOnly() bool { return a == Read || a == Copy }

// FileLock is a process's hold on a database file, taken before anything
// else is done to it or beside it (the master key, SQLite's log).
type FileLock struct {
	l      *filelock.Lock
	path   string
	access Access
}

// Lock takes the file at path for access. Serve creates an empty file when
// there is none; the others need the file to exist. It refuses, naming
// both paths where it can, a file in use through another path, and for
// Serve a file another server holds.
func Lock(path string, access Access) (*FileLock, error) {
	l, err := filelock.Open(path, access == Serve)
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	fl := &FileLock{l: l, path: path, access: access}
	if err := fl.take(); err != nil {
		l.Close()
		return nil, err
	}
	return fl, nil
}

func (fl *FileLock) take() error {
	if fl.access == Serve {
		if err := fl.l.Server(); errors.Is(err, filelock.ErrServer) {
			where := "by this or another path"
			if others := fl.holders(); others != "" {
				where += ": " + others
			}
			return fmt.Errorf("another payoutd server is using the database %s (the same file, %s)", fl.path, where)
		} else if err != nil {
			return fmt.Errorf("lock database %s: %w", fl.path, err)
		}
		// The release before this one locked <db>.lock, named after the
		// path it was given; holding it too keeps an older server off.
		for _, name := range legacyLockNames(fl.path, fl.l.Real()) {
			if busy, err := fl.l.LockBeside(name); busy {
				return fmt.Errorf("an older payoutd server is using the database %s (it holds %s): stop it before starting this one", fl.path, name)
			} else if err != nil {
				return fmt.Errorf("lock %s: %w", name, err)
			}
		}
	}
	other, err := fl.l.Announce()
	if err != nil {
		return fmt.Errorf("lock database %s: %w", fl.path, err)
	}
	if !other {
		return fl.takeFromOlder()
	}
	const why = "SQLite keeps its write-ahead log beside the path it is given, so one file written through two paths is corrupted"
	hs := fl.l.Holders()
	if len(hs) == 0 {
		return fmt.Errorf("the database %s is in use through another path (a hard link or another name for the same file; "+
			"the process is not visible from here): %s. Use the path the server uses", fl.path, why)
	}
	return fmt.Errorf("the database %s is in use through another path, %s: %s. Use that path (-db %s)", fl.path, fl.holders(), why, hs[0].Path)
}

// takeFromOlder refuses the file when a process that takes no part in
// these locks (an older release, serving or not, or another program) has
// it open in SQLite through another name.
func (fl *FileLock) takeFromOlder() error {
	elsewhere, err := fl.l.UsedThroughOtherName()
	if err != nil {
		return fmt.Errorf("lock database %s: %w", fl.path, err)
	}
	if !elsewhere {
		return nil
	}
	const why = "SQLite keeps its write-ahead log beside the path it is given, so one file used through two paths is corrupted or copied stale"
	if hs := fl.l.Holders(); len(hs) > 0 {
		return fmt.Errorf("the database %s is open through another path, %s (an older payoutd release or another program): %s. Use that path (-db %s)",
			fl.path, fl.holders(), why, hs[0].Path)
	}
	return fmt.Errorf("the database %s is open through another path by a process not visible from here (an older payoutd release or another program, "+
		"perhaps in another container): %s. Use the path it uses, or stop it", fl.path, why)
}

// legacyLockNames are the <db>.lock files the previous release locked:
// after the path as given and after the path with symlinks resolved.
func legacyLockNames(path, real string) []string {
	names := []string{path + ".lock"}
	if abs, err := filepath.Abs(path); err != nil || abs != real {
		names = append(names, real+".lock")
	}
	return names
}

// holders names the other processes this one can see with the file open
// under another name, for an error message.
func (fl *FileLock) holders() string {
	var parts []string
	for _, h := range fl.l.Holders() {
		parts = append(parts, fmt.Sprintf("%s (process %d)", h.Path, h.PID))
	}
	return strings.Join(parts, ", ")
}

// Access is what the lock was taken for.
func (fl *FileLock) Access() Access { return fl.access }

// Release drops the lock; DB.Close does it for a database opened with
// Open, and releasing again does nothing.
func (fl *FileLock) Release() error {
	if fl == nil || fl.l == nil {
		return nil
	}
	err := fl.l.Close()
	fl.l = nil
	return err
}

// Open opens the locked file as its access allows: Serve migrates it to
// schema (the newest schema.sql); Write and Read refuse a file at another
// schema version than this binary's, Read and Copy open it read-only. The returned DB
// releases the lock when closed; on error the lock is kept.
func (fl *FileLock) Open(ctx context.Context, schema string) (*DB, error) {
	var db *DB
	var err error
	switch fl.access {
	case Serve:
		db, err = open(ctx, fl.path, schema)
	case Write:
		if db, err = open(ctx, fl.path, ""); err == nil {
			err = db.RequireSchema(ctx)
		}
	case Read, Copy:
		var x *sqlitex.DB
		if x, err = sqlitex.OpenReadOnly(ctx, fl.path); err == nil {
			db = newDB(fl.path, x)
		}
		if err == nil && fl.access == Read {
			err = db.RequireSchema(ctx)
		}
	}
	if err == nil {
		err = fl.holdsOpened(db)
	}
	if err != nil {
		if db != nil {
			db.Close()
		}
		return nil, err
	}
	db.lock = fl
	return db, nil
}

// holdsOpened refuses a database SQLite opened from another file than the
// one locked: the lock would then keep nobody off the file in use.
func (fl *FileLock) holdsOpened(db *DB) error {
	file := db.x.File()
	same, err := fl.l.Holds(file)
	if err != nil {
		return fmt.Errorf("open database %s: %w", fl.path, err)
	}
	if !same {
		return fmt.Errorf("open database %s: SQLite opened %s, not the file locked; refusing it", fl.path, file)
	}
	return nil
}

// RequireSchema refuses a file at another schema version than this
// binary's: only serve and migrate change the schema.
func (db *DB) RequireSchema(ctx context.Context) error {
	v, err := db.SchemaVersion(ctx)
	if err != nil {
		return err
	}
	switch {
	case v > SchemaVersion:
		return fmt.Errorf("database %s is at schema version %d, newer than this binary's (%d): use the binary that serves it", db.Path, v, SchemaVersion)
	case v < SchemaVersion:
		return fmt.Errorf("database %s is at schema version %d and this binary's is %d: stop the server and run `payoutd migrate` (or start this binary's server, which migrates), then run this command again",
			db.Path, v, SchemaVersion)
	}
	return nil
}

// SchemaVersion is the version the file carries.
func (db *DB) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	if err := db.r.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	return v, nil
}
