package server

import (
	"net/http"

	"github.com/payoutd/payoutd/apperr"
)

var errNoRoute = apperr.Errorf(apperr.ErrNotFound, "no such endpoint")

// handleHealthz answers as long as the process serves HTTP.
func (s *Server) handleHealthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// handleReadyz answers 200 only when the database answers and writes land
// (writable.go); after a write failed for lack of space, only once a probe
// write that needs a fresh page commits again.
func (s *Server) handleReadyz(w http.ResponseWriter, r *http.Request) {
	if err := s.db.Ping(r.Context()); err != nil {
		w.Header().Set("Retry-After", "5")
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable"})
		return
	}
	if s.storageFull.Load() {
		if err := s.db.Health().ProbeStorage(r.Context()); err != nil {
			w.Header().Set("Retry-After", storageRetryAfter)
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "storage_full"})
			return
		}
		s.storageFull.Store(false)
	}
	if why := s.storageWritable(r.Context()); why != "" {
		w.Header().Set("Retry-After", "5")
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "storage_unwritable", "reason": why})
		return
	}
	body := map[string]any{"status": "ready"}
	s.readyRail(r, body)
	if err := s.readyQuarantines(r, body); err != nil {
		w.Header().Set("Retry-After", "5")
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable"})
		return
	}
	if err := s.readyTracks(r, body); err != nil {
		w.Header().Set("Retry-After", "5")
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable"})
		return
	}
	writeJSON(w, http.StatusOK, body)
}
