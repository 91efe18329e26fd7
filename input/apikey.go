package input

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/payoutd/payoutd/store"
)

// CheckScopes refuses a scope that keys cannot carry; all is every scope.
func CheckScopes(scopes []string) ([]string, error) {
	var out []string
	for _, sc := range scopes {
		sc = strings.TrimSpace(sc)
		if sc == "all" {
			return store.AllScopes, nil
		}
		if !slices.Contains(store.AllScopes, sc) {
			return nil, fmt.Errorf("unknown scope %q (known: %s)", sc, strings.Join(store.AllScopes, ", "))
		}
		if !slices.Contains(out, sc) {
			out = append(out, sc)
		}
	}
	return out, nil
}

// APIKey is a new key as the console's form gives it.
type APIKey struct {
	Name   string
	Scopes []string
}

// Validate checks the label and the scopes (at least one) and returns the
// scopes.
func (q *APIKey) Validate() ([]string, error) {
	fields := map[string]string{}
	if utf8.RuneCountInString(q.Name) > 100 {
		fields["name"] = "must be at most 100 characters"
	} else if msg := TextProblem(q.Name); msg != "" {
		fields["name"] = msg
	}
	scopes, err := CheckScopes(q.Scopes)
	switch {
	case err != nil:
		fields["scopes"] = err.Error()
	case len(scopes) == 0:
		fields["scopes"] = "choose at least one scope"
	}
	if len(fields) > 0 {
		return nil, Invalid(fields)
	}
	return scopes, nil
}
