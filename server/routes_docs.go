package server

import (
	"net/http"

	"github.com/payoutd/payoutd/openapi"
)

// docsRoutes registers the API contract and its reference page, both
// public: GET /api/v1/openapi.json (openapi/openapi.json, embedded) and
// GET /docs (rendered from it). GET / sends a browser to the reference:
// it is the first address a new user opens.
func (s *Server) docsRoutes() {
	a, err := openapi.NewDocs(s.cfg.BaseURL)
	if err != nil {
		// The document and template are embedded: a failure here is a
		// build defect (the contract test catches it), never a runtime one.
		panic(err)
	}
	s.mux.HandleFunc("GET /api/v1/openapi.json", s.noQuery(a.ServeDocument))
	s.mux.HandleFunc("GET /docs", a.ServeReference)
	s.mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/docs", http.StatusFound)
	})
}
