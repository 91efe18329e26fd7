package server_test

import (
	"net/http"
	"testing"

	"github.com/matryer/is"
)

// TestRootLeadsToDocs: the server's own address, opened in a browser,
// leads to the API reference; other unknown paths stay JSON 404s.
func TestRootLeadsToDocs(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Get(e.URL + "/")
	is.NoErr(err)
	res.Body.Close()
	is.Equal(res.StatusCode, http.StatusFound)
	is.Equal(res.Header.Get("Location"), "/docs")
	res, err = http.Get(e.URL + "/") // followed, as a browser does
	is.NoErr(err)
	res.Body.Close()
	is.Equal(res.StatusCode, http.StatusOK)
	is.Equal(res.Request.URL.Path, "/docs")
	is.Equal(e.req("GET", "/nope", nil).Status, http.StatusNotFound)
}
