package server_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v2/jwa"
	"github.com/lestrrat-go/jwx/v2/jwk"
	"github.com/lestrrat-go/jwx/v2/jwt"
	"github.com/matryer/is"

	"crypto/ed25519"
	"crypto/rand"

	"github.com/payoutd/payoutd/app"
	"github.com/payoutd/payoutd/app/apptest"
	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/store"
)

func TestAuthRejectsBadCredentials(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	cases := []struct{ name, auth string }{
		{"Missing", ""},
		{"NotBearer", "Basic " + e.Key},
		{"EmptyBearer", "Bearer "},
		{"Garbage", "Bearer not-a-token"},
		{"TruncatedKey", "Bearer " + e.Key[:len(e.Key)-3]},
		{"UnknownKey", "Bearer sk_sandbox_" + strings.Repeat("A", 43)},
		{"SQLInKey", "Bearer sk_sandbox_' OR '1'='1"},
		{"TruncatedJWT", "Bearer eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJ4In0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			r := e.reqAs("", "GET", "/api/v1/payments", nil, "Authorization", c.auth)
			is.Equal(r.Status, http.StatusUnauthorized)
			is.Equal(r.errCode(t), "ERR_UNAUTHORIZED")
			is.True(r.Header.Get("X-Request-Id") != "")
		})
	}
}

func TestKeyRevocationAndRotation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	ctx := context.Background()
	t.Run("RevokeIsImmediate", func(t *testing.T) {
		is := is.New(t)
		key, uid, _ := e.newUser("revoke@example.com", false, store.AllScopes)
		is.Equal(e.reqAs(key, "GET", "/api/v1/payments", nil).Status, http.StatusOK)
		keys, err := e.DB.ListAPIKeys(ctx, uid)
		is.NoErr(err)
		is.NoErr(e.DB.WithTx(ctx, func(tx *store.Tx) error { return tx.RevokeAPIKey(keys[0].ID) }))
		is.Equal(e.reqAs(key, "GET", "/api/v1/payments", nil).Status, http.StatusUnauthorized)
	})
	t.Run("RotationGrace", func(t *testing.T) {
		is := is.New(t)
		old, uid, _ := e.newUser("rotate@example.com", false, store.AllScopes)
		keys, err := e.DB.ListAPIKeys(ctx, uid)
		is.NoErr(err)
		var fresh string
		is.NoErr(e.DB.WithTx(ctx, func(tx *store.Tx) (err error) {
			_, fresh, err = tx.RotateAPIKey(keys[0].ID)
			return err
		}))
		is.Equal(e.reqAs(old, "GET", "/api/v1/payments", nil).Status, http.StatusOK)   // grace period
		is.Equal(e.reqAs(fresh, "GET", "/api/v1/payments", nil).Status, http.StatusOK) // new key
		// Past the 24 h grace the old key stops working.
		_, err = e.SQL.Exec("UPDATE api_keys SET expires_at = ? WHERE id = ?", time.Now().Add(-time.Second).UnixMilli(), keys[0].ID)
		is.NoErr(err)
		is.Equal(e.reqAs(old, "GET", "/api/v1/payments", nil).Status, http.StatusUnauthorized)
		is.Equal(e.reqAs(fresh, "GET", "/api/v1/payments", nil).Status, http.StatusOK)
	})
}

// TestKeyRevokedByAnotherProcess: a key revoked by another process on the
// same file while the server runs (as `payoutd keys revoke` does: a Write
// lock and the one wiring) is refused within a second of the revoke's
// commit, and stays refused; the server's other keys keep working.
func TestKeyRevokedByAnotherProcess(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	ctx := context.Background()
	key, uid, _ := e.newUser("revoke-beside@example.com", false, store.AllScopes)
	is.Equal(e.reqAs(key, "GET", "/api/v1/payments", nil).Status, http.StatusOK) // now remembered
	keys, err := e.DB.ListAPIKeys(ctx, uid)
	is.NoErr(err)

	cfg := apptest.Config(t, e.Dir, app.Config{})
	lock, err := store.Lock(cfg.Path, store.Write)
	is.NoErr(err)
	cfg.Lock = lock
	cli, err := app.Open(ctx, cfg)
	if err != nil {
		lock.Release()
		t.Fatal(err)
	}
	defer cli.Close()
	is.NoErr(cli.DB.WithTx(ctx, func(tx *store.Tx) error { return tx.RevokeAPIKey(keys[0].ID) }, store.WithActor("cli", "")))
	committed := time.Now()

	wait.For(t, 10*time.Second, func() error {
		began := time.Now()
		switch st := e.reqAs(key, "GET", "/api/v1/payments", nil).Status; st {
		case http.StatusUnauthorized:
			return nil
		case http.StatusOK:
			if late := began.Sub(committed); late > time.Second {
				t.Fatalf("revoked key accepted %s after the revoke committed", late)
			}
			return errors.New("revoked key still accepted")
		default:
			t.Fatalf("status %d", st)
			return nil
		}
	})
	for range 3 {
		is.Equal(e.reqAs(key, "GET", "/api/v1/payments", nil).Status, http.StatusUnauthorized)
	}
	is.Equal(e.reqAs(e.Key, "GET", "/api/v1/payments", nil).Status, http.StatusOK)
}

func TestScopes(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	key, _, _ := e.newUser("reader@example.com", false, []string{"payments:read"})
	is.Equal(e.reqAs(key, "GET", "/api/v1/payments", nil).Status, http.StatusOK)
	r := e.reqAs(key, "POST", "/api/v1/payments/initiate", map[string]any{"amount": 1, "currency": "USD", "destinationAddress": testAddress})
	is.Equal(r.Status, http.StatusForbidden)
	is.Equal(r.errCode(t), "ERR_INSUFFICIENT_SCOPE")
}

func (e *env) token(key, scope string) (int, map[string]any) {
	e.t.Helper()
	form := url.Values{"grant_type": {"client_credentials"}}
	if scope != "" {
		form.Set("scope", scope)
	}
	req, _ := http.NewRequest("POST", e.URL+"/api/v1/oauth/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	r := resp{Status: res.StatusCode}
	r.Body = readAll(e.t, res)
	return r.Status, r.JSON(e.t)
}

func TestSessionTokens(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	ctx := context.Background()
	t.Run("OK", func(t *testing.T) {
		is := is.New(t)
		status, body := e.token(e.Key, "")
		is.Equal(status, http.StatusOK)
		is.Equal(body["token_type"], "Bearer")
		is.Equal(body["expires_in"], float64(900))
		tok := body["access_token"].(string)
		is.Equal(e.reqAs(tok, "GET", "/api/v1/payments", nil).Status, http.StatusOK)
		// The JWKS verifies it independently of the server's code.
		jr := e.reqAs("", "GET", "/.well-known/jwks.json", nil)
		is.Equal(jr.Status, http.StatusOK)
		set, err := jwk.Parse(jr.Body)
		is.NoErr(err)
		_, err = jwt.ParseString(tok, jwt.WithKeySet(set))
		is.NoErr(err)
	})
	t.Run("NarrowedScope", func(t *testing.T) {
		is := is.New(t)
		status, body := e.token(e.Key, "payments:read")
		is.Equal(status, http.StatusOK)
		tok := body["access_token"].(string)
		is.Equal(e.reqAs(tok, "GET", "/api/v1/payments", nil).Status, http.StatusOK)
		r := e.reqAs(tok, "POST", "/api/v1/payments/initiate", map[string]any{"amount": 1})
		is.Equal(r.Status, http.StatusForbidden)
	})
	t.Run("ErrScopeNotHeld", func(t *testing.T) {
		is := is.New(t)
		key, _, _ := e.newUser("narrow@example.com", false, []string{"payments:read"})
		status, _ := e.token(key, "payments:write")
		is.Equal(status, http.StatusBadRequest)
	})
	t.Run("ErrBadKey", func(t *testing.T) {
		is := is.New(t)
		status, body := e.token("sk_sandbox_nope", "")
		is.Equal(status, http.StatusUnauthorized)
		is.Equal(body["error"].(map[string]any)["code"], "ERR_UNAUTHORIZED")
	})
	t.Run("RevokedKeyEndsSessions", func(t *testing.T) {
		is := is.New(t)
		key, uid, _ := e.newUser("session-revoke@example.com", false, store.AllScopes)
		_, body := e.token(key, "")
		tok := body["access_token"].(string)
		is.Equal(e.reqAs(tok, "GET", "/api/v1/payments", nil).Status, http.StatusOK)
		keys, _ := e.DB.ListAPIKeys(ctx, uid)
		is.NoErr(e.DB.WithTx(ctx, func(tx *store.Tx) error { return tx.RevokeAPIKey(keys[0].ID) }))
		is.Equal(e.reqAs(tok, "GET", "/api/v1/payments", nil).Status, http.StatusUnauthorized)
	})
	t.Run("ErrExpired", func(t *testing.T) {
		is := is.New(t)
		keys, err := e.DB.SigningKeys(ctx, e.Sealer)
		is.NoErr(err)
		tok := signToken(t, keys[0].KID, keys[0].Priv, e.UserID, e.keyID(), time.Now().Add(-time.Hour))
		is.Equal(e.reqAs(tok, "GET", "/api/v1/payments", nil).Status, http.StatusUnauthorized)
		// The same token unexpired is accepted: the refusal above is the expiry.
		tok = signToken(t, keys[0].KID, keys[0].Priv, e.UserID, e.keyID(), time.Now())
		is.Equal(e.reqAs(tok, "GET", "/api/v1/payments", nil).Status, http.StatusOK)
	})
	// A token signed with the server's own key is still refused when it has
	// no exp or iat, or lives longer than the server ever issues.
	t.Run("ErrLifetime", func(t *testing.T) {
		keys, err := e.DB.SigningKeys(ctx, e.Sealer)
		if err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		cases := []struct {
			name     string
			iat, exp *time.Time
			want     int
		}{
			{"OKFull", ptr(now), ptr(now.Add(15 * time.Minute)), http.StatusOK},
			{"OKShort", ptr(now), ptr(now.Add(time.Minute)), http.StatusOK},
			{"ErrNoExp", ptr(now), nil, http.StatusUnauthorized},
			{"ErrNoIat", nil, ptr(now.Add(10 * time.Minute)), http.StatusUnauthorized},
			{"ErrTooLong", ptr(now), ptr(now.Add(15*time.Minute + time.Second)), http.StatusUnauthorized},
			{"ErrYear", ptr(now), ptr(now.Add(365 * 24 * time.Hour)), http.StatusUnauthorized},
			{"ErrExpBeforeIat", ptr(now), ptr(now.Add(-time.Second)), http.StatusUnauthorized},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				is := is.New(t)
				tok := signClaims(t, keys[0].KID, keys[0].Priv, e.UserID, e.keyID(), c.iat, c.exp)
				r := e.reqAs(tok, "GET", "/api/v1/payments", nil)
				is.Equal(r.Status, c.want)
				if c.want == http.StatusUnauthorized {
					is.Equal(r.errCode(t), "ERR_UNAUTHORIZED")
				}
			})
		}
	})
	t.Run("ErrForeignSigner", func(t *testing.T) {
		is := is.New(t)
		keys, _ := e.DB.SigningKeys(ctx, e.Sealer)
		_, other, _ := ed25519.GenerateKey(rand.Reader)
		tok := signToken(t, keys[0].KID, other, e.UserID, e.keyID(), time.Now())
		is.Equal(e.reqAs(tok, "GET", "/api/v1/payments", nil).Status, http.StatusUnauthorized)
	})
}

func (e *env) keyID() string {
	keys, err := e.DB.ListAPIKeys(context.Background(), e.UserID)
	if err != nil || len(keys) == 0 {
		e.t.Fatal("no key", err)
	}
	return keys[len(keys)-1].ID
}

func signToken(t *testing.T, kid string, priv ed25519.PrivateKey, sub, keyID string, issued time.Time) string {
	t.Helper()
	k, err := jwk.FromRaw(priv)
	if err != nil {
		t.Fatal(err)
	}
	k.Set(jwk.KeyIDKey, kid)
	tok, _ := jwt.NewBuilder().Issuer("http://payoutd.test").Subject(sub).IssuedAt(issued).
		Expiration(issued.Add(15*time.Minute)).Claim("key_id", keyID).Claim("scope", "payments:read").Build()
	b, err := jwt.Sign(tok, jwt.WithKey(jwa.EdDSA, k))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func ptr[T any](v T) *T { return &v }

// signClaims signs a session token with only the given iat and exp set.
func signClaims(t *testing.T, kid string, priv ed25519.PrivateKey, sub, keyID string, iat, exp *time.Time) string {
	t.Helper()
	k, err := jwk.FromRaw(priv)
	if err != nil {
		t.Fatal(err)
	}
	k.Set(jwk.KeyIDKey, kid)
	b := jwt.NewBuilder().Issuer("http://payoutd.test").Subject(sub).Claim("key_id", keyID).Claim("scope", "payments:read")
	if iat != nil {
		b = b.IssuedAt(*iat)
	}
	if exp != nil {
		b = b.Expiration(*exp)
	}
	tok, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	signed, err := jwt.Sign(tok, jwt.WithKey(jwa.EdDSA, k))
	if err != nil {
		t.Fatal(err)
	}
	return string(signed)
}
