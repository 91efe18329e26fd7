package sqlitex

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"modernc.org/sqlite"
)

// DB is one SQLite file: a single write connection owned by the committer
// (and shared with River, which runs its own short transactions on it) and
// a small read pool.
type DB struct {
	w, r   *sql.DB
	path   string
	file   string // the file SQLite opened, as it reports it
	group  *committer
	writes *writeStatements
}

// Hooks are what the owner of the file does once per batch of
// transactions rather than once per transaction.
type Hooks struct {
	// BeforeCommit runs after the batch's transactions and before its
	// COMMIT, on the batch's connection: the place to write rows the
	// transactions left to be written together. Its failure fails the
	// batch, whose members are then retried one by one.
	BeforeCommit func(ex Execer) error
	// Forget runs on the committer goroutine whenever what was learnt
	// from earlier batches may be wrong: another process wrote the file,
	// or a batch did not commit.
	Forget func()
}

// Execer runs a statement.
type Execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// writerCacheKiB sizes the write connection's page cache (negative: KiB).
// It is kept small because a commit can cost a walk of the whole cache:
// when an insert splits a b-tree page, SQLite parks a page under the
// number just past the 1 GiB lock byte while it reorders the new pages,
// and at COMMIT the pages above the file's end are cut from the cache by
// visiting every slot of its hash table. Such a commit costs time in
// proportion to the pages cached, and most of a busy writer's commits
// split a page somewhere. (In a file past 1 GiB that number is inside the
// file and no walk happens.)
const writerCacheKiB = -8192

// driver opens every connection.
var sqliteDriver = &sqlite.Driver{}

// pragmas are applied on every connection. Durability across power loss
// comes from the committer's own WAL fsync before it answers (wal_sync.go).
var pragmas = []string{
	"busy_timeout(10000)",
	"journal_mode(WAL)",
	"foreign_keys(1)",
	"temp_store(MEMORY)",
}

func dsn(path string, readOnly bool) string {
	q := url.Values{}
	for _, p := range pragmas {
		q.Add("_pragma", p)
	}
	// A reader's page cache keeps the hot indexes of a busy file in memory
	// instead of re-reading them through the VFS on every statement; the
	// writer's is smaller (writerCacheKiB).
	if readOnly {
		q.Add("_pragma", "query_only(1)")
		q.Add("_pragma", "cache_size(-6144)")
	} else {
		// NORMAL: the committer fsyncs the WAL itself before it
		// acknowledges a batch (wal_sync.go), off the connection.
		q.Set("_txlock", "immediate")
		q.Add("_pragma", "synchronous(NORMAL)")
		q.Add("_pragma", fmt.Sprintf("cache_size(%d)", writerCacheKiB))
		q.Add("_pragma", fmt.Sprintf("wal_autocheckpoint(%d)", writerCheckpointPages))
	}
	return uri(path, q)
}

// uri is the SQLite URI that names exactly the file at path, whatever it
// holds: SQLite decodes %HH in a URI's path and ends the path at ? or #,
// so a path given as it is could open another file than the one locked
// (a%41.db opening aA.db). Every byte but the unreserved ones and / is
// escaped; an absolute path gets an empty authority (file:///…), so one
// starting with // is not read as a host.
func uri(path string, q url.Values) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.WriteString("file:")
	if strings.HasPrefix(path, "/") {
		b.WriteString("//")
	}
	for i := 0; i < len(path); i++ {
		c := path[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("/-._~", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	b.WriteString("?")
	b.WriteString(q.Encode())
	return b.String()
}

// Open opens (creating if needed) the file at path and starts its
// committer.
func Open(ctx context.Context, path string, hooks Hooks) (*DB, error) {
	writes := &writeStatements{}
	w := sql.OpenDB(&connector{dsn: dsn(path, false), drv: sqliteDriver, uncancellable: true, writes: writes})
	// One writer: SQLite serialises writes anyway, and a second writer
	// connection only turns waiting into SQLITE_BUSY errors.
	w.SetMaxOpenConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	if err := w.PingContext(ctx); err != nil {
		w.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// Durability rests on fsyncing the WAL file: refuse a file system
	// where SQLite could not switch to WAL instead of losing commits.
	var mode, file string
	if err := w.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		w.Close()
		return nil, fmt.Errorf("open %s: journal mode %q, payoutd needs WAL (%v)", path, mode, err)
	}
	// The WAL sits beside the file SQLite actually opened (symlinks
	// resolved), which is what it reports here.
	if err := w.QueryRowContext(ctx, "SELECT file FROM pragma_database_list WHERE name = 'main'").Scan(&file); err != nil || file == "" {
		w.Close()
		return nil, fmt.Errorf("open %s: database file: %v", path, err)
	}
	r := sql.OpenDB(&connector{dsn: dsn(path, true), drv: sqliteDriver})
	// Busy readers starve the single writer, so the read pool stays small.
	r.SetMaxOpenConns(4)
	r.SetMaxIdleConns(4)
	db := &DB{w: w, r: r, path: path, file: file, writes: writes}
	db.group = startCommitter(w, hooks, file+"-wal", startCheckpointer(path))
	return db, nil
}

// File is the file SQLite opened (symlinks resolved), as SQLite reports
// it: the one its write-ahead log sits beside.
func (db *DB) File() string { return db.file }

// Reader is the read pool: queries only, outside any transaction.
func (db *DB) Reader() *sql.DB { return db.r }

// Writer is the write connection, for River alone: its driver runs its own
// short transactions between the committer's batches. Nothing else may
// write through it.
func (db *DB) Writer() *sql.DB { return db.w }

// Close stops the committer and closes both pools; closing again does
// nothing.
func (db *DB) Close() error {
	if db.group == nil { // read-only
		return db.r.Close()
	}
	db.group.stop()
	return errors.Join(db.r.Close(), db.w.Close())
}
