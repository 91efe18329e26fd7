package server_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"testing"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/console"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/server"
)

// TestTokenPagesCountTowardAuthLimit: guessing a hosted KYC page's session
// id or a console sign-in link is a failed authentication like a bad API
// key: each refusal counts toward the per-address limit, and once the
// address is over it, those pages and the API alike answer 429 before the
// token is looked at.
func TestTokenPagesCountTowardAuthLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	con, err := console.New(console.Config{DB: e.DB, BaseURL: "http://payoutd.test", Sealer: e.Sealer, Rates: rates.Default(),
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)), RequestID: server.RequestID})
	if err != nil {
		t.Fatal(err)
	}
	const limit = 4
	base := serverWith(t, e, server.Config{Limits: map[string]int{"auth-failures": limit}, Console: con})
	get := func(path string) int {
		t.Helper()
		req, _ := http.NewRequestWithContext(context.Background(), "GET", base+path, nil)
		if path == "/api/v1/payments" {
			req.Header.Set("Authorization", "Bearer "+e.Key)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	is := is.New(t)
	is.Equal(get("/api/v1/payments"), 200)
	is.Equal(get("/verify/assets/verify.css"), 200) // assets carry no secret and count for nothing
	is.Equal(get("/verify/kvs_guess1"), 404)
	is.Equal(get("/verify/kvs_guess2/status"), 404)
	is.Equal(get("/console/signin?token="+url.QueryEscape("guess-one")), 401)
	is.Equal(get("/console/signin?token="+url.QueryEscape("guess-two")), 401)
	is.Equal(get("/verify/kvs_guess3"), 429)
	is.Equal(get("/console/signin?token=guess-three"), 429)
	is.Equal(get("/api/v1/payments"), 429) // the same limit: not even a good key is looked at
}
