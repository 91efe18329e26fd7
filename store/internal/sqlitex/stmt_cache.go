package sqlitex

import (
	"context"
	"database/sql/driver"
	"errors"
	"strconv"
	"strings"
)

// Statement cache. database/sql prepares, runs and finalizes every query
// that is not an explicit *sql.Stmt, and parsing SQL is the most expensive
// thing modernc SQLite does for a small statement, and most of it is for
// River's own queries (its SQLite driver runs plain QueryContext calls for
// every job insert and completion, all on the single write connection).
// So every connection payoutd opens keeps each query it runs prepared, keyed
// by its text, for the connection's lifetime: River, the committer and the
// read pool all skip the parser after the first run of a query.

// On the write connection statements run without their context's
// cancellation. modernc starts a watcher goroutine and a progress handler
// for every statement whose context can be cancelled, so that it can
// interrupt it midway; the writer's statements (the committer's and River's)
// are short and index-bounded, and that watcher cost more than most of them
// (it showed in the scheduler profile under load). River's statements still
// stop between statements when their context ends (database/sql checks it);
// the committer checks a caller's context before running its transaction
// and then runs it to the end. Readers keep cancellation: a report query
// whose client went away should stop.

// maxCachedStmts bounds a connection's cache against dynamically built SQL
// (River's queries over a variable number of ids, for one); when it is full
// the statement cached longest ago that is not in use makes room.
const maxCachedStmts = 256

// connector opens modernc SQLite connections wrapped in cachingConn.
type connector struct {
	dsn           string
	drv           driver.Driver
	uncancellable bool
	writes        *writeStatements // the write connection's count
}

func (c *connector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.drv.Open(c.dsn)
	if err != nil {
		return nil, err
	}
	return &cachingConn{Conn: conn, stmts: map[string]*cachedStmt{}, uncancellable: c.uncancellable, writes: c.writes}, nil
}

func (c *connector) Driver() driver.Driver { return c.drv }

type cachedStmt struct {
	driver.Stmt
	// busy while a Rows from it is open: SQLite steps one cursor per
	// statement, so a second use meanwhile runs unprepared.
	busy bool
}

// cachingConn is one SQLite connection with its statement cache.
// database/sql never uses a driver connection from two goroutines at once,
// so the cache needs no lock.
type cachingConn struct {
	driver.Conn
	stmts         map[string]*cachedStmt
	order         []string // cached queries, oldest first
	uncancellable bool
	writes        *writeStatements // nil but on the write connection
}

// stmt returns the cached statement for query (and variant, see
// variantKey), preparing it on first use, or nil when query must run
// unprepared.
func (c *cachingConn) stmt(ctx context.Context, query, variant string) (*cachedStmt, error) {
	key := query
	if variant != "" {
		key = query + "\x00" + variant
	}
	if s, ok := c.stmts[key]; ok {
		if s.busy {
			return nil, nil
		}
		return s, nil
	}
	if len(c.stmts) >= maxCachedStmts && !c.evict() {
		return nil, nil
	}
	ds, err := c.Conn.(driver.ConnPrepareContext).PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	s := &cachedStmt{Stmt: ds}
	c.stmts[key] = s
	c.order = append(c.order, key)
	return s, nil
}

// riverFetch is the statement River's producers fetch jobs with, one per
// queue, on the write connection: when a notification wakes them and at
// every FetchPollInterval.
const riverFetch = "-- name: JobGetAvailable"

// variantKey separates prepared statements that SQLite would otherwise
// re-prepare on nearly every run. SQLite plans around the value bound to a
// LIMIT and re-prepares (parses again) whenever that value changes; River's
// fetch binds each queue's free worker slots there (100 for the default
// queue, 8 for webhooks, alternating on the one write connection), so its
// one cached statement was parsed again on almost every poll, on the
// writer. Keyed by that value, each queue keeps its own.
func variantKey(query string, args []driver.NamedValue) string {
	if !strings.HasPrefix(query, riverFetch) {
		return ""
	}
	for _, a := range args {
		if a.Ordinal == 3 { // LIMIT ?3, River's max_to_lock
			if n, ok := a.Value.(int64); ok {
				return strconv.FormatInt(n, 10)
			}
		}
	}
	return ""
}

// evict finalizes the oldest cached statement not in use; false if every
// one is in use.
func (c *cachingConn) evict() bool {
	for i, q := range c.order {
		s := c.stmts[q]
		if s.busy {
			continue
		}
		s.Close()
		delete(c.stmts, q)
		c.order = append(c.order[:i], c.order[i+1:]...)
		return true
	}
	return false
}

func (c *cachingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	if c.uncancellable && ctx.Done() != nil {
		ctx = context.WithoutCancel(ctx)
	}
	c.writes.note(query)
	s, err := c.stmt(ctx, query, "")
	if err != nil {
		return nil, err
	}
	if s == nil {
		return c.Conn.(driver.ExecerContext).ExecContext(ctx, query, args)
	}
	return s.Stmt.(driver.StmtExecContext).ExecContext(ctx, args)
}

func (c *cachingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if c.uncancellable {
		if p, ok := ctx.Value(connProbeKey{}).(*connProbe); ok {
			p.conn = c // the committer asks which connection its batch runs on
		}
		if ctx.Done() != nil {
			ctx = context.WithoutCancel(ctx)
		}
	}
	c.writes.note(query)
	s, err := c.stmt(ctx, query, variantKey(query, args))
	if err != nil {
		return nil, err
	}
	if s == nil {
		return c.Conn.(driver.QueryerContext).QueryContext(ctx, query, args)
	}
	rows, err := s.Stmt.(driver.StmtQueryContext).QueryContext(ctx, args)
	if err != nil {
		return nil, err
	}
	s.busy = true
	return &cachedRows{Rows: rows, s: s}, nil
}

func (c *cachingConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	return c.Conn.(driver.ConnPrepareContext).PrepareContext(ctx, query)
}

func (c *cachingConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	return c.beginCounted(ctx, opts)
}

func (c *cachingConn) Ping(ctx context.Context) error {
	return c.Conn.(driver.Pinger).Ping(ctx)
}

func (c *cachingConn) ResetSession(ctx context.Context) error {
	return c.Conn.(driver.SessionResetter).ResetSession(ctx)
}

func (c *cachingConn) IsValid() bool { return c.Conn.(driver.Validator).IsValid() }

// Close finalizes the cached statements before the connection: SQLite
// refuses to close a connection with live statements.
func (c *cachingConn) Close() error {
	var errs []error
	for q, s := range c.stmts {
		errs = append(errs, s.Close())
		delete(c.stmts, q)
	}
	c.order = nil
	return errors.Join(append(errs, c.Conn.Close())...)
}

// cachedRows frees its statement for the next use when closed.
type cachedRows struct {
	driver.Rows
	s *cachedStmt
}

func (r *cachedRows) Close() error {
	err := r.Rows.Close()
	r.s.busy = false
	return err
}
