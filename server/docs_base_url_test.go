package server_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/server"
)

// TestDocsUseBaseURL: /docs shows the server's own -base-url in its header
// and in every curl example, never the document's localhost default.
func TestDocsUseBaseURL(t *testing.T) {
	is := is.New(t)
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	const base = "https://payouts.example.in/pd"
	srv, err := server.New(context.Background(), e.DB, server.Config{BaseURL: base + "/", Sealer: e.Sealer, Rates: rates.Default(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	is.NoErr(err)
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	res, err := http.Get(hs.URL + "/docs")
	is.NoErr(err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	is.NoErr(err)
	page := string(b)
	is.True(strings.Contains(page, "base URL <code>"+base+"</code>"))
	curls := strings.Count(page, "curl")
	is.True(curls > 40)
	is.Equal(strings.Count(page, "curl &#39;"+base+"/"), strings.Count(page, "curl &#39;")) // every example targets the base URL
	is.True(strings.Count(page, "curl &#39;") > 40)
	is.True(!strings.Contains(page, "localhost:8080"))
}
