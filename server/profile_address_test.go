package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// TestProfileAddress: the postal address a FIRA prints for the beneficiary.
func TestProfileAddress(t *testing.T) {
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	for _, c := range []struct {
		name, value, want string // want "" = accepted
	}{
		{"Lines", "12 MG Road\nBengaluru 560001", ""},
		{"Longest", strings.Repeat("a", 300), ""},
		{"Clear", "", ""},
		{"ErrTooLong", strings.Repeat("a", 301), "the length must be no more than 300"},
		{"ErrControl", "12 MG Road\x00", "must not contain control characters"},
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
