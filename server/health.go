package server

import (
	"net/http"

	"github.com/payoutd/payoutd/store"
)

var errNoRoute = store.Errorf(store.ErrNotFound, "no such endpoint")

// handleHealthz answers as long as the process serves HTTP.
func (s *Server) handleHealthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// handleReadyz answers 200 only when the database answers.
func (s *Server) handleReadyz(w http.ResponseWriter, r *http.Request) {
	if err := s.db.Ping(r.Context()); err != nil {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable"})
		return
	}
	var one int
	if err := s.db.QueryRowContext(r.Context(), "SELECT 1").Scan(&one); err != nil {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable"})
		return
	}
	body := map[string]any{"status": "ready"}
	s.readyRail(r, body)
	writeJSON(w, http.StatusOK, body)
}
