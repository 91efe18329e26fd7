package sqlitex

import (
	"fmt"
	"os"
)

// Pipelined durability. The write connection runs with synchronous=NORMAL,
// so a COMMIT appends its frames to the WAL without waiting for the disk;
// the committer then hands the committed batch to the syncer goroutine and
// starts the next batch at once. The syncer fsyncs the WAL file (one fsync
// covers every batch committed before it) and only then answers the batch's
// callers. An acknowledged write is therefore exactly as durable as under
// synchronous=FULL, which fsyncs the WAL at each commit, but the disk wait
// does not hold the write connection: the next batch, and River, run
// during it. River's own transactions (fetching and completing jobs) skip
// the fsync altogether; losing one to a power cut only runs an idempotent
// job step again. SQLite still syncs the WAL before each checkpoint and the
// database after it (NORMAL does), so a checkpoint never moves frames the
// disk has not got. The price: for up to one fsync another connection can
// read a commit that a power cut (not a process crash) would still undo; no
// caller has been told it succeeded.
//
// A failed fsync is final. Linux may drop the pages it could not write and
// report success for the next fsync, and WAL recovery stops at the first
// frame that is not on disk, so every later commit would be acknowledged and
// still lost. After one failure the committer refuses all writes with that
// error; restarting recovers from what the disk holds.

// syncBacklog is how many committed batches may wait for the syncer before
// the committer waits for it too.
const syncBacklog = 64

func (c *committer) syncLoop() {
	defer c.wg.Done()
	for b := range c.synced {
		batches := [][]*txRequest{b}
	drain:
		for {
			select {
			case more, ok := <-c.synced:
				if !ok {
					break drain
				}
				batches = append(batches, more)
			default:
				break drain
			}
		}
		err := c.syncWAL()
		if err != nil {
			c.broken.CompareAndSwap(nil, &err)
		}
		for _, batch := range batches {
			acknowledge(batch, err)
		}
	}
}

// syncWAL makes everything written to the WAL so far durable. fsync acts on
// the file, not the descriptor, so this one sees SQLite's writes.
func (c *committer) syncWAL() error {
	if c.wal == nil {
		f, err := os.OpenFile(c.walPath, os.O_RDWR, 0)
		if err != nil {
			return fmt.Errorf("open wal for sync: %w", err)
		}
		c.wal = f
	}
	if err := syncData(c.wal); err != nil {
		return fmt.Errorf("sync wal: %w", err)
	}
	return nil
}

// acknowledge answers each caller of a committed batch: its own result, or
// the sync failure that leaves its commit undurable.
func acknowledge(batch []*txRequest, syncErr error) {
	for _, r := range batch {
		if r.err == nil && syncErr != nil {
			r.err = syncErr
		}
		r.done <- r.err
	}
}
