package server

import (
	"net/http"
	"time"
)

// Observer is told what the HTTP layer did, for metrics (package metrics
// implements it); Config.Observer nil is told nothing.
type Observer interface {
	// Request is one answered request: the route pattern that matched
	// ("unmatched" for none), the status and the time it took.
	Request(route string, status int, d time.Duration)
	// RateLimited is one request refused with 429 by the named limit.
	RateLimited(limit string)
}

// observe tells the observer of one answered request.
func (s *Server) observe(r *http.Request, status int, d time.Duration) {
	if s.cfg.Observer == nil {
		return
	}
	route := r.Pattern
	if route == "" {
		route = "unmatched"
	}
	s.cfg.Observer.Request(route, status, d)
}

// refused tells the observer of a request a limit refused.
func (s *Server) refused(limit string) {
	if s.cfg.Observer != nil {
		s.cfg.Observer.RateLimited(limit)
	}
}

// StorageFull reports whether writes are failing for lack of space (it
// clears once /readyz sees a probe write commit again).
func (s *Server) StorageFull() bool { return s.storageFull.Load() }
