package server

import (
	"net/http"
	"strings"

	"github.com/payoutd/payoutd/apperr"
)

// errMethodNotAllowed is a known path asked with a method it does not serve.
const errMethodNotAllowed = "ERR_METHOD_NOT_ALLOWED"

// catchAll are the patterns that answer paths no route serves.
var catchAll = map[string]bool{"/": true, "/api/": true, "/v1/": true}

// noRoute answers a request no route took: 405 with Allow when its path is
// served under other methods, else 404. The catch-alls take every method,
// so ServeMux's own 405 never happens; this asks the mux, method by method,
// which patterns the path would reach.
func (s *Server) noRoute(w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
		if m == r.Method || (m == http.MethodGet && r.Method == http.MethodHead) {
			continue
		}
		probe := &http.Request{Method: m, URL: r.URL, Host: r.Host, Header: http.Header{}}
		if _, pattern := s.mux.Handler(probe); s.serves(pattern, probe) {
			allow = append(allow, m)
			if m == http.MethodGet {
				allow = append(allow, http.MethodHead)
			}
		}
	}
	if len(allow) == 0 {
		s.writeError(w, r, errNoRoute)
		return
	}
	w.Header().Set("Allow", strings.Join(allow, ", "))
	s.writeError(w, r, apperr.Errorf(errMethodNotAllowed, "%s is not allowed on %s; it allows %s", r.Method, r.URL.Path, strings.Join(allow, ", ")))
}

// serves reports whether the route registered as pattern answers the
// probe: any pattern but a catch-all, and of the payment subresources'
// shared pattern only the paths it dispatches.
func (s *Server) serves(pattern string, probe *http.Request) bool {
	if pattern == "" || catchAll[pattern] {
		return false
	}
	if strings.HasSuffix(pattern, " /api/v1/payments/{a}/{b}") {
		// Handler does not set path values: find them as the route would.
		a, b, _ := strings.Cut(strings.TrimPrefix(probe.URL.Path, "/api/v1/payments/"), "/")
		probe.SetPathValue("a", a)
		probe.SetPathValue("b", b)
		return isPaymentSubresource(probe)
	}
	return true
}
