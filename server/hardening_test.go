package server_test

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/server"
)

// serverWith starts another server on e's database with cfg's knobs.
func serverWith(t *testing.T, e *env, cfg server.Config) string {
	t.Helper()
	cfg.Sealer, cfg.Rates = e.Sealer, rates.Default()
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	if cfg.BaseURL == "" {
		cfg.BaseURL = "http://payoutd.test"
	}
	srv, err := server.New(context.Background(), e.DB, cfg)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return hs.URL
}

// TestResponseHeaders: API responses, errors included, are never sniffed
// or cached and carry one Cache-Control; the pages that may be cached
// still say so themselves; HSTS is sent only under an https base URL.
func TestResponseHeaders(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	cases := []struct {
		name, key, method, path string
		status                  int
		cache                   string
	}{
		{"List", e.Key, "GET", "/api/v1/payments", 200, "no-store"},
		{"Unauthorized", "", "GET", "/api/v1/payments", 401, "no-store"},
		{"Validation", e.Key, "POST", "/api/v1/payments/initiate", 400, "no-store"},
		{"NoRoute", e.Key, "GET", "/api/v1/nothing-here", 404, "no-store"},
		{"Health", "", "GET", "/readyz", 200, "no-store"},
		{"JWKS", "", "GET", "/.well-known/jwks.json", 200, "public, max-age=300"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			var body any
			if c.method == "POST" {
				body = map[string]any{}
			}
			r := e.reqAs(c.key, c.method, c.path, body)
			is.Equal(r.Status, c.status)
			is.Equal(r.Header.Get("X-Content-Type-Options"), "nosniff")
			is.Equal(r.Header.Values("Cache-Control"), []string{c.cache})
			is.Equal(r.Header.Get("Strict-Transport-Security"), "") // the base URL is http
		})
	}
	t.Run("HSTSUnderHTTPS", func(t *testing.T) {
		is := is.New(t)
		url := serverWith(t, e, server.Config{BaseURL: "https://payouts.example.com"})
		for _, path := range []string{"/api/v1/payments", "/healthz"} {
			res, err := http.Get(url + path)
			is.NoErr(err)
			res.Body.Close()
			is.Equal(res.Header.Get("Strict-Transport-Security"), "max-age=31536000")
			is.Equal(res.Header.Get("X-Content-Type-Options"), "nosniff")
		}
	})
}

// TestKYCPageSendsOneCacheControl: the hosted page's session manager adds
// a Cache-Control of its own beside the page's no-store; one is sent.
func TestKYCPageSendsOneCacheControl(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newVerifyEnv(t)
	b := newPageClient(t)
	p := b.get(kycStartURL(e, e.Key))
	is.Equal(p.Status, http.StatusOK)
	is.True(p.Header.Get("Set-Cookie") != "") // the session manager wrote its cookie
	is.Equal(p.Header.Values("Cache-Control"), []string{"no-store"})
	is.Equal(p.Header.Get("X-Content-Type-Options"), "nosniff")
}

// rawToken signs header and claims as given, with the server's own key:
// the library would not write the shapes these tests need.
func rawToken(t *testing.T, priv ed25519.PrivateKey, header, claims map[string]any) string {
	t.Helper()
	seg := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return base64.RawURLEncoding.EncodeToString(b)
	}
	signed := seg(header) + "." + seg(claims)
	return signed + "." + base64.RawURLEncoding.EncodeToString(ed25519.Sign(priv, []byte(signed)))
}

// TestSessionTokenShape: a token signed with the server's own key is
// refused unless its header says EdDSA and its exp and iat are integers.
func TestSessionTokenShape(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	keys, err := e.DB.Keys().SigningKeys(context.Background(), e.Sealer)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().Unix()
	claims := func(iat, exp any) map[string]any {
		return map[string]any{"iss": "http://payoutd.test", "sub": e.UserID, "key_id": e.keyID(), "scope": "payments:read",
			"livemode": false, "jti": "ses_test", "iat": iat, "exp": exp}
	}
	header := func(alg string) map[string]any { return map[string]any{"alg": alg, "kid": keys[0].KID, "typ": "JWT"} }
	cases := []struct {
		name   string
		header map[string]any
		claims map[string]any
		want   int
	}{
		{"OK", header("EdDSA"), claims(now, now+600), 200},
		{"ErrAlgNone", header("none"), claims(now, now+600), 401},
		{"ErrAlgHS256", header("HS256"), claims(now, now+600), 401},
		{"ErrAlgMissing", map[string]any{"kid": keys[0].KID}, claims(now, now+600), 401},
		{"ErrExpString", header("EdDSA"), claims(now, strconv.FormatInt(now+600, 10)), 401},
		{"ErrExpFraction", header("EdDSA"), claims(now, json.Number(strconv.FormatInt(now+600, 10)+".5")), 401},
		{"ErrExpExponent", header("EdDSA"), claims(now, json.Number("1.8e9")), 401},
		{"ErrIatString", header("EdDSA"), claims(strconv.FormatInt(now, 10), now+600), 401},
		{"ErrIatNull", header("EdDSA"), claims(nil, now+600), 401},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			r := e.reqAs(rawToken(t, keys[0].Priv, c.header, c.claims), "GET", "/api/v1/payments", nil)
			is.Equal(r.Status, c.want)
		})
	}
}

// TestFailedAuthLimitedPerAddress: after the limit of failed
// authentications from one client address in a minute, every request
// from it is answered 429 with Retry-After, before its credentials are
// looked at, the token endpoint included; other addresses are not
// affected. Behind a trusted proxy the address is X-Forwarded-For's; from
// anyone else that header is ignored.
func TestFailedAuthLimitedPerAddress(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	const limit = 3
	proxied := serverWith(t, e, server.Config{Limits: map[string]int{"auth-failures": limit},
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("::1/128")}})
	call := func(base, key, from string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest("GET", base+"/api/v1/payments", nil)
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		if from != "" {
			req.Header.Set("X-Forwarded-For", "198.51.100.99, "+from)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	is := is.New(t)
	const attacker, other = "203.0.113.7", "203.0.113.8"
	for i := 0; i < limit; i++ {
		is.Equal(call(proxied, "sk_sandbox_wrong", attacker).StatusCode, 401)
	}
	res := call(proxied, "sk_sandbox_wrong", attacker)
	is.Equal(res.StatusCode, 429)
	secs, err := strconv.Atoi(res.Header.Get("Retry-After"))
	is.NoErr(err)
	is.True(secs > 0 && secs <= 60)
	is.Equal(call(proxied, e.Key, attacker).StatusCode, 429) // not even a good key is looked at
	status, _ := tokenAt(t, proxied, e.Key, attacker)
	is.Equal(status, 429)
	// Another address, and successes, are not counted.
	for i := 0; i < 2*limit; i++ {
		is.Equal(call(proxied, e.Key, other).StatusCode, 200)
	}
	is.Equal(call(proxied, "sk_sandbox_wrong", other).StatusCode, 401)

	// Without trusted proxies X-Forwarded-For is the client's to forge:
	// the peer's address is counted whatever the header says.
	direct := serverWith(t, e, server.Config{Limits: map[string]int{"auth-failures": limit}})
	for i := 0; i < limit; i++ {
		is.Equal(call(direct, "sk_sandbox_wrong", "192.0.2."+strconv.Itoa(i+1)).StatusCode, 401)
	}
	is.Equal(call(direct, "sk_sandbox_wrong", "192.0.2.200").StatusCode, 429)
}

// tokenAt asks base's token endpoint for a session, from address from
// behind the trusted proxy.
func tokenAt(t *testing.T, base, key, from string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest("POST", base+"/api/v1/oauth/token", strings.NewReader("grant_type=client_credentials"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("X-Forwarded-For", from)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}
