package server_test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/server"
	"github.com/payoutd/payoutd/store"
)

func TestWebhookCreate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	t.Run("OK", func(t *testing.T) {
		is := is.New(t)
		r := e.req("POST", "/api/v1/webhooks", map[string]any{"url": "https://hooks.example.com/payoutd",
			"description": "books", "eventTypes": []string{"payout.settled", "payout.failed", "payout.settled"}})
		is.Equal(r.Status, http.StatusCreated)
		is.Equal(r.Header.Get("Cache-Control"), "no-store")
		m := r.JSON(t)
		is.True(strings.HasPrefix(m["id"].(string), "whe_"))
		is.Equal(m["url"], "https://hooks.example.com/payoutd")
		is.Equal(m["description"], "books")
		is.Equal(m["eventTypes"], []any{"payout.failed", "payout.settled"}) // sorted, no duplicates
		is.Equal(m["status"], "enabled")
		is.Equal(m["livemode"], false)
		secret := m["secret"].(string)
		is.True(strings.HasPrefix(secret, "whsec_"))
		key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
		is.NoErr(err)
		is.True(len(key) >= 24)
	})
	t.Run("OKAllTypes", func(t *testing.T) {
		is := is.New(t)
		r := e.req("POST", "/api/v1/webhooks", map[string]any{"url": "http://127.0.0.1:4000/hook"})
		is.Equal(r.Status, http.StatusCreated)
		is.Equal(r.JSON(t)["eventTypes"], []any{})
	})
	bad := []struct {
		name, field string
		body        any
	}{
		{"ErrURLMissing", "url", map[string]any{}},
		{"ErrURLRelative", "url", map[string]any{"url": "/hook"}},
		{"ErrURLScheme", "url", map[string]any{"url": "ftp://example.com/"}},
		{"ErrURLTooLong", "url", map[string]any{"url": "https://example.com/" + strings.Repeat("x", 2048)}},
		{"ErrURLNotString", "url", map[string]any{"url": 7}},
		{"ErrURLCredentials", "url", map[string]any{"url": "https://a:b@example.com/"}},
		{"ErrEventType", "eventTypes", map[string]any{"url": "https://example.com/", "eventTypes": []string{"payout.exploded"}}},
		{"ErrEventTypesNotList", "eventTypes", map[string]any{"url": "https://example.com/", "eventTypes": "payout.settled"}},
		{"ErrDescription", "description", map[string]any{"url": "https://example.com/", "description": strings.Repeat("d", 257)}},
		{"ErrUnknownField", "secret", map[string]any{"url": "https://example.com/", "secret": "whsec_mine"}},
		{"ErrBody", "body", "[1,2]"},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			r := e.req("POST", "/api/v1/webhooks", c.body)
			is.Equal(r.Status, http.StatusBadRequest)
			is.Equal(r.errCode(t), apperr.ErrValidation)
			is.True(r.field(t, c.field) != "")
		})
	}
	t.Run("ErrScope", func(t *testing.T) {
		is := is.New(t)
		key, _, _ := e.newUser("reader@example.com", false, []string{"payments:read"})
		r := e.reqAs(key, "POST", "/api/v1/webhooks", map[string]any{"url": "https://example.com/"})
		is.Equal(r.Status, http.StatusForbidden)
		is.Equal(r.errCode(t), apperr.ErrInsufficientScope)
		is.Equal(e.reqAs(key, "GET", "/api/v1/webhooks", nil).Status, http.StatusForbidden)
	})
	t.Run("ErrTooMany", func(t *testing.T) {
		is := is.New(t)
		key, _, _ := e.newUser("many@example.com", false, store.AllScopes)
		for i := 0; i < store.MaxWebhookEndpoints; i++ {
			r := e.reqAs(key, "POST", "/api/v1/webhooks", map[string]any{"url": fmt.Sprintf("https://example.com/%d", i)})
			is.Equal(r.Status, http.StatusCreated)
		}
		r := e.reqAs(key, "POST", "/api/v1/webhooks", map[string]any{"url": "https://example.com/one-more"})
		is.Equal(r.Status, http.StatusConflict)
		is.Equal(r.errCode(t), apperr.ErrConflict)
	})
}

// TestWebhookLiveTargets: a live key may not register loopback, private,
// link-local or CGNAT targets, by literal address or by a name resolving
// to one; a sandbox key may (a local receiver is how sandbox is tested).
func TestWebhookLiveTargets(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	liveKey, _, _ := e.newUser("live@example.com", true, store.AllScopes)
	refused := map[string]string{
		"http://127.0.0.1:8080/hook":         "loopback",
		"http://10.1.2.3/hook":               "private",
		"https://192.168.0.10/hook":          "private",
		"http://[::1]:9000/hook":             "loopback",
		"http://169.254.169.254/latest":      "link-local",
		"http://100.64.0.7/hook":             "carrier-grade NAT",
		"http://0.0.0.0:8080/":               "unspecified",
		"http://[::ffff:10.0.0.1]/":          "private",
		"http://localhost:8080/hook":         "loopback",
		"http://[fd12:3456::1]/hook":         "private",
		"http://224.0.0.251/hook":            "multicast",
		"http://webhooks.localhost:8080/abc": "loopback",
	}
	for url, why := range refused {
		t.Run("ErrLive "+url, func(t *testing.T) {
			is := is.New(t)
			r := e.reqAs(liveKey, "POST", "/api/v1/webhooks", map[string]any{"url": url})
			is.Equal(r.Status, http.StatusBadRequest)
			is.Equal(r.errCode(t), apperr.ErrValidation)
			is.True(strings.Contains(r.field(t, "url"), why))
		})
		// Sandbox webhooks may reach this machine, never its networks.
		t.Run("Sandbox "+url, func(t *testing.T) {
			is := is.New(t)
			r := e.req("POST", "/api/v1/webhooks", map[string]any{"url": url})
			if why == "loopback" {
				is.Equal(r.Status, http.StatusCreated)
				is.Equal(r.JSON(t)["livemode"], false)
				return
			}
			is.Equal(r.Status, http.StatusBadRequest)
			is.True(strings.Contains(r.field(t, "url"), why))
			is.True(strings.Contains(r.field(t, "url"), "-sandbox-private-webhooks"))
		})
		// With -sandbox-private-webhooks they may reach any address.
		t.Run("OKSandboxPrivateAllowed "+url, func(t *testing.T) {
			is := is.New(t)
			private := *e
			private.URL = serverWith(t, e, server.Config{SandboxPrivateWebhooks: true})
			r := private.req("POST", "/api/v1/webhooks", map[string]any{"url": url})
			is.Equal(r.Status, http.StatusCreated)
		})
	}
	t.Run("OKLivePublic", func(t *testing.T) {
		is := is.New(t)
		r := e.reqAs(liveKey, "POST", "/api/v1/webhooks", map[string]any{"url": "https://93.184.216.34/hook"})
		is.Equal(r.Status, http.StatusCreated)
		is.Equal(r.JSON(t)["livemode"], true)
	})
}

func TestWebhookManage(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	otherKey, _, _ := e.newUser("other@example.com", false, store.AllScopes)
	r := e.req("POST", "/api/v1/webhooks", map[string]any{"url": "https://example.com/a", "eventTypes": []string{"payout.settled"}})
	id := r.JSON(t)["id"].(string)
	e.req("POST", "/api/v1/webhooks", map[string]any{"url": "https://example.com/b"})

	t.Run("List", func(t *testing.T) {
		is := is.New(t)
		r := e.req("GET", "/api/v1/webhooks", nil)
		is.Equal(r.Status, http.StatusOK)
		items := r.JSON(t)["items"].([]any)
		is.Equal(len(items), 2)
		first := items[0].(map[string]any)
		is.Equal(first["id"], id) // oldest first
		_, hasSecret := first["secret"]
		is.True(!hasSecret)
		is.True(!strings.Contains(string(r.Body), "whsec_"))
		is.Equal(len(e.reqAs(otherKey, "GET", "/api/v1/webhooks", nil).JSON(t)["items"].([]any)), 0)
	})
	t.Run("Get", func(t *testing.T) {
		is := is.New(t)
		r := e.req("GET", "/api/v1/webhooks/"+id, nil)
		is.Equal(r.Status, http.StatusOK)
		m := r.JSON(t)
		is.Equal(m["url"], "https://example.com/a")
		is.Equal(m["eventTypes"], []any{"payout.settled"})
		_, hasSecret := m["secret"]
		is.True(!hasSecret)
	})
	t.Run("Deliveries", func(t *testing.T) {
		is := is.New(t)
		r := e.req("GET", "/api/v1/webhooks/"+id+"/deliveries", nil)
		is.Equal(r.Status, http.StatusOK)
		m := r.JSON(t)
		is.Equal(m["items"], []any{})
		is.Equal(m["total"], 0.0)
		is.Equal(m["limit"], 20.0)
		is.Equal(e.req("GET", "/api/v1/webhooks/"+id+"/deliveries?limit=500", nil).JSON(t)["limit"], 100.0)
		is.Equal(e.req("GET", "/api/v1/webhooks/"+id+"/deliveries?page=0", nil).Status, http.StatusBadRequest)
		is.Equal(e.req("GET", "/api/v1/webhooks/"+id+"/deliveries?eventId=nope", nil).Status, http.StatusBadRequest)
	})
	// Another user's endpoint does not exist for them: 404, never 403.
	for _, c := range []struct{ method, path string }{
		{"GET", "/api/v1/webhooks/" + id},
		{"DELETE", "/api/v1/webhooks/" + id},
		{"POST", "/api/v1/webhooks/" + id + "/rotate"},
		{"POST", "/api/v1/webhooks/" + id + "/enable"},
		{"GET", "/api/v1/webhooks/" + id + "/deliveries"},
		{"GET", "/api/v1/webhooks/whe_doesnotexist"},
	} {
		t.Run("ErrOtherUser "+c.method+" "+c.path, func(t *testing.T) {
			is := is.New(t)
			r := e.reqAs(otherKey, c.method, c.path, nil)
			is.Equal(r.Status, http.StatusNotFound)
			is.Equal(r.errCode(t), apperr.ErrNotFound)
		})
	}
	t.Run("RotateTwice", func(t *testing.T) {
		is := is.New(t)
		a := e.req("POST", "/api/v1/webhooks/"+id+"/rotate", nil).JSON(t)["secret"]
		b := e.req("POST", "/api/v1/webhooks/"+id+"/rotate", nil).JSON(t)["secret"]
		is.True(a != b)
	})
	t.Run("EnableEnabled", func(t *testing.T) {
		is := is.New(t)
		r := e.req("POST", "/api/v1/webhooks/"+id+"/enable", nil)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(r.JSON(t)["status"], "enabled")
	})
	t.Run("Delete", func(t *testing.T) {
		is := is.New(t)
		r := e.req("DELETE", "/api/v1/webhooks/"+id, nil)
		is.Equal(r.Status, http.StatusNoContent)
		is.Equal(len(r.Body), 0)
		is.Equal(e.req("GET", "/api/v1/webhooks/"+id, nil).Status, http.StatusNotFound)
		is.Equal(e.req("DELETE", "/api/v1/webhooks/"+id, nil).Status, http.StatusNotFound)
		is.Equal(len(e.req("GET", "/api/v1/webhooks", nil).JSON(t)["items"].([]any)), 1)
		var n int
		if err := e.SQL.QueryRow("SELECT count(*) FROM webhook_secrets WHERE endpoint_id = ?", id).Scan(&n); err != nil {
			t.Fatal(err)
		}
		is.Equal(n, 0) // the secrets went with it
	})
}

// TestWebhookSecretSealed: the database holds no usable secret, only a
// value sealed with the master key.
func TestWebhookSecretSealed(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t)
	m := e.req("POST", "/api/v1/webhooks", map[string]any{"url": "https://example.com/a"}).JSON(t)
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(m["secret"].(string), "whsec_"))
	is.NoErr(err)
	var sealed []byte
	is.NoErr(e.SQL.QueryRow("SELECT sealed FROM webhook_secrets WHERE endpoint_id = ?", m["id"]).Scan(&sealed))
	is.True(!strings.Contains(string(sealed), string(key)))
	is.True(!strings.Contains(string(sealed), m["secret"].(string)))
}
