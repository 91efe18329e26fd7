package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// TestProfileAddress: the postal address a FIRA prints for the beneficiary,
// one line of at most 300 characters.
func TestProfileAddress(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	for _, c := range []struct {
		name, value, want string // want "" = accepted
	}{
		{"OneLine", "12 MG Road, Bengaluru 560001, Karnataka", ""},
		{"Longest", strings.Repeat("a", 300), ""},
		{"Clear", "", ""},
		{"ErrTooLong", strings.Repeat("a", 301), "the length must be no more than 300"},
		// Like every request string: lines are separated with commas.
		{"ErrNewline", "12 MG Road\nBengaluru", "must not contain control character U+000A"},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			r := e.req("PATCH", "/api/v1/profile", map[string]any{"address": c.value})
			if c.want == "" {
				is.Equal(r.Status, http.StatusOK)
				is.Equal(r.JSON(t)["address"], c.value)
				return
			}
			is.Equal(r.Status, http.StatusBadRequest)
			is.Equal(r.field(t, "address"), c.want)
		})
	}
}
