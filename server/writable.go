package server

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/payoutd/payoutd/store"
)

// Readiness must see writes, not just reads: a read-only or failing disk
// answers every SELECT and refuses every commit. What proves writes land
// is a write that landed: any write of the last writeFresh seconds, or
// else a heartbeat row committed through the group committer for the
// asking. So an idle server writes at most one heartbeat per writeFresh,
// however often it is asked, and a busy one none.
const (
	// writeFresh is how long a durable write proves the disk takes writes.
	writeFresh = 2 * time.Second
	// heartbeatWait is how long a readiness check waits for a heartbeat
	// before it calls the storage unwritable (a hung disk).
	heartbeatWait = 2 * time.Second
	// heartbeatRetry is how soon after a failed heartbeat another is tried;
	// meanwhile the failure is the answer.
	heartbeatRetry = time.Second
)

// writeWatch runs one heartbeat at a time for every readiness check.
type writeWatch struct {
	mu      sync.Mutex
	running chan struct{} // closed when the heartbeat in flight ends
	lastErr error         // of the last heartbeat that ended
	lastAt  time.Time
}

// storageWritable returns "" when writes land, or why they do not.
func (s *Server) storageWritable(ctx context.Context) string {
	h := s.db.Health().WriteHealth()
	if !h.Landed.IsZero() && !h.Failed.After(h.Landed) && time.Since(h.Landed) < writeFresh {
		return ""
	}
	err := s.writes.heartbeat(ctx, s.db)
	if err == nil {
		return ""
	}
	h = s.db.Health().WriteHealth()
	why := "writes fail"
	switch {
	case err == errHeartbeatLate:
		why = fmt.Sprintf("a write has waited over %s without landing", heartbeatWait)
	case h.Err != nil && h.Failed.After(h.Landed):
		why += ": " + h.Reason
	default:
		s.log.Error("heartbeat write failed", "err", err)
	}
	if h.Landed.IsZero() {
		return why + "; none has landed since the start"
	}
	return fmt.Sprintf("%s; the last landed %s ago", why, time.Since(h.Landed).Round(time.Second))
}

var errHeartbeatLate = fmt.Errorf("heartbeat did not land within %s", heartbeatWait)

// heartbeat commits a heartbeat row, or joins the one in flight, and
// returns its outcome; a heartbeat that failed under heartbeatRetry ago is
// not repeated.
func (w *writeWatch) heartbeat(ctx context.Context, db *store.DB) error {
	w.mu.Lock()
	if w.running == nil && w.lastErr != nil && time.Since(w.lastAt) < heartbeatRetry {
		err := w.lastErr
		w.mu.Unlock()
		return err
	}
	if w.running == nil {
		done := make(chan struct{})
		w.running = done
		// Not the caller's context: the heartbeat outlives a caller that
		// gives up, and the next caller joins it.
		go func() {
			err := db.Health().Heartbeat(context.Background())
			w.mu.Lock()
			w.lastErr, w.lastAt, w.running = err, time.Now(), nil
			w.mu.Unlock()
			close(done)
		}()
	}
	running := w.running
	w.mu.Unlock()
	t := time.NewTimer(heartbeatWait)
	defer t.Stop()
	select {
	case <-running:
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.lastErr
	case <-t.C:
		return errHeartbeatLate
	case <-ctx.Done():
		return ctx.Err()
	}
}

// StorageWritable reports whether writes land (see storageWritable), for
// the metric payoutd_storage_writable; it may commit a heartbeat.
func (s *Server) StorageWritable() bool {
	ctx, cancel := context.WithTimeout(context.Background(), heartbeatWait+time.Second)
	defer cancel()
	return s.storageWritable(ctx) == ""
}
