package sqlitex

import (
	"database/sql"
	"sync"
	"time"
)

// Background checkpoints. Left to itself SQLite checkpoints inside the
// COMMIT that takes the WAL past 1,000 pages: that commit copies the pages
// into the database file and fsyncs it and the WAL while holding the only
// write connection, and every caller waiting for the writer waits with
// it. A PASSIVE checkpoint on a connection of its own does the same copy
// without blocking the writer, so this goroutine runs one soon after each
// commit. The WAL starts over at the writer's next transaction only if
// everything in it has been copied by then, which happens when the writer
// pauses between batches.
//
// The writer's own automatic checkpoint stays, at writerCheckpointPages:
// at 1,000 it fired whenever this goroutine was a few commits behind
// (under load it waits for a core like everyone else), and the writer
// copied and fsynced in its place. At 10,000 it is what starts the WAL
// over under sustained load, when the writer never pauses; by then this
// goroutine has copied nearly everything, and that COMMIT takes a few
// milliseconds more.

// checkpointEvery is the least time between two background checkpoints.
const checkpointEvery = 20 * time.Millisecond

// writerCheckpointPages is the WAL's length in pages (4 KiB) at which the
// writer checkpoints inside a COMMIT (about 40 MB).
const writerCheckpointPages = 10000

type checkpointer struct {
	conn *sql.DB
	kick chan struct{}
	quit chan struct{}
	wg   sync.WaitGroup
	once sync.Once
	err  error
}

func startCheckpointer(path string) *checkpointer {
	// query_only refuses writes from SQL but not checkpoints.
	conn := sql.OpenDB(&connector{dsn: dsn(path, true), drv: sqliteDriver})
	conn.SetMaxOpenConns(1)
	cp := &checkpointer{conn: conn, kick: make(chan struct{}, 1), quit: make(chan struct{})}
	cp.wg.Add(1)
	go cp.loop()
	return cp
}

// committed tells the checkpointer the WAL grew; it never blocks.
func (cp *checkpointer) committed() {
	select {
	case cp.kick <- struct{}{}:
	default:
	}
}

func (cp *checkpointer) loop() {
	defer cp.wg.Done()
	for {
		select {
		case <-cp.kick:
		case <-cp.quit:
			return
		}
		// A failed checkpoint (the database busy or closing) leaves the work
		// to the next one, or to the writer's automatic checkpoint.
		_, _ = cp.conn.Exec("PRAGMA wal_checkpoint(PASSIVE)")
		select {
		case <-time.After(checkpointEvery):
		case <-cp.quit:
			return
		}
	}
}

func (cp *checkpointer) stop() error {
	cp.once.Do(func() {
		close(cp.quit)
		cp.wg.Wait()
		cp.err = cp.conn.Close()
	})
	return cp.err
}
