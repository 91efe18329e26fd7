package server

import (
	"net/http"
	"slices"
	"strings"
)

// checkQuery refuses a query string the route's document entry does not
// describe: an unknown parameter (a typo such as statuss=FAILED would
// otherwise list everything) or a parameter given twice (handlers read
// one value; a proxy may read the other). allowed is the route's query
// parameters, none when nil. Each offender is named in error.fields.
func checkQuery(r *http.Request, allowed []string) error {
	if r.URL.RawQuery == "" {
		return nil
	}
	bad := map[string]string{}
	for name, values := range r.URL.Query() {
		switch {
		case !slices.Contains(allowed, name):
			bad[name] = "is not a query parameter of this operation; it takes " + takes(allowed)
		case len(values) > 1:
			bad[name] = "is given more than once; send it once"
		case values[0] == "":
			bad[name] = "is empty; give a value or leave the parameter out"
		}
	}
	if len(bad) > 0 {
		return validationError(bad)
	}
	return nil
}

func takes(allowed []string) string {
	if len(allowed) == 0 {
		return "none"
	}
	return strings.Join(allowed, ", ")
}

// listQuery is a list route's query parameters: page, limit and after,
// then its filters.
func listQuery(filters ...string) []string {
	return append([]string{"page", "limit", "after"}, filters...)
}

// noQuery wraps a public JSON route that takes no query parameters.
func (s *Server) noQuery(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := checkQuery(r, nil); err != nil {
			s.writeError(w, r, err)
			return
		}
		h(w, r)
	}
}
