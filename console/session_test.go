package console

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

// sessionCookie is the console cookie the last response set.
func (b *browser) sessionCookie() *http.Cookie {
	b.t.Helper()
	for _, c := range (&http.Response{Header: b.header}).Cookies() {
		if c.Name == cookieName {
			return c
		}
	}
	b.t.Fatalf("no %s cookie set; headers %v", cookieName, b.header)
	return nil
}

// TestSessionCookie: the sign-in cookie is HttpOnly, SameSite=Lax (a link
// from mail or chat opens the console signed in) and scoped to /console, and Secure exactly when the base URL is https (a
// browser then never sends it over plain HTTP).
func TestSessionCookie(t *testing.T) {
	for _, tc := range []struct {
		base   string
		secure bool
	}{
		{"https://payoutd.example.com", true},
		{"http://localhost:8080", false},
	} {
		t.Run(tc.base, func(t *testing.T) {
			is := is.New(t)
			h := newHarness(t, harnessOpts{baseURL: tc.base})
			u, _ := h.newUser("asha@example.com", false)
			b := h.browser()
			b.get("/console/signin?token=" + h.link(u))
			b.post("/console/signin", url.Values{"token": {b.hidden("token")}})
			is.Equal(b.status, http.StatusSeeOther)
			c := b.sessionCookie()
			is.Equal(c.Secure, tc.secure)
			is.True(c.HttpOnly)
			is.Equal(c.SameSite, http.SameSiteLaxMode)
			is.Equal(c.Path, "/console")
		})
	}
}

// TestSessionIdleTimeout: a session unused for 30 minutes is over; one
// unused for 29 is not.
func TestSessionIdleTimeout(t *testing.T) {
	is := is.New(t)
	h := newHarness(t, harnessOpts{})
	u, _ := h.newUser("asha@example.com", false)
	idle29, idle31 := h.signIn(u), h.signIn(u)

	h.advance(29 * time.Minute)
	is.Equal(idle29.get("/console/"), http.StatusOK)
	h.advance(2 * time.Minute) // idle31 has now been idle for 31 minutes
	is.Equal(idle31.get("/console/payouts"), http.StatusSeeOther)
	is.Equal(idle31.location(), "/console/signin")
	idle31.follow()
	is.True(idle31.has("Sign in to the console"))
}

// TestSessionAbsoluteTimeout: a session ends 12 hours after sign-in however
// busy it is. Sign-in sets that deadline; a session whose deadline is a
// minute away (as if signed in 11 h 59 min ago and used ever since) works
// now and is over two minutes later, long before its idle timeout.
func TestSessionAbsoluteTimeout(t *testing.T) {
	is := is.New(t)
	h := newHarness(t, harnessOpts{})
	u, _ := h.newUser("asha@example.com", false)
	before := time.Now()
	b := h.signIn(u)
	token := b.sessionCookie().Value

	deadline := h.sessionDeadline(token)
	is.True(!deadline.Before(before.Add(12*time.Hour)) && !deadline.After(time.Now().Add(12*time.Hour)))

	h.setSessionDeadline(token, time.Now().Add(time.Minute))
	is.Equal(b.get("/console/"), http.StatusOK) // used: the idle timeout starts again
	h.advance(2 * time.Minute)
	is.Equal(b.get("/console/"), http.StatusSeeOther)
	is.Equal(b.location(), "/console/signin")
}

// sessionDeadline reads a session's absolute deadline as stored.
func (h *harness) sessionDeadline(token string) time.Time {
	h.t.Helper()
	ctx, err := h.con.sessions.Load(context.Background(), token)
	if err != nil {
		h.t.Fatal(err)
	}
	if h.con.sessions.GetString(ctx, keyUser) == "" {
		h.t.Fatal("the token is no signed-in session")
	}
	return h.con.sessions.Deadline(ctx)
}

// setSessionDeadline rewrites a session's absolute deadline in the store,
// as scs writes it.
func (h *harness) setSessionDeadline(token string, at time.Time) {
	h.t.Helper()
	ctx, err := h.con.sessions.Load(context.Background(), token)
	if err != nil {
		h.t.Fatal(err)
	}
	h.con.sessions.SetDeadline(ctx, at)
	if _, _, err := h.con.sessions.Commit(ctx); err != nil {
		h.t.Fatal(err)
	}
}

// TestSignInLinkChecks: opening a link spends nothing (a link previewer
// leaves it working), a used, expired or unknown link is refused as soon as
// it is opened, and no page but a live link's starts a session for a
// visitor who is not signed in.
func TestSignInLinkChecks(t *testing.T) {
	is := is.New(t)
	h := newHarness(t, harnessOpts{})
	u, _ := h.newUser("asha@example.com", false)
	token := h.link(u)

	preview := h.browser()
	for range 2 {
		is.Equal(preview.get("/console/signin?token="+token), http.StatusOK)
	}
	b := h.browser()
	b.get("/console/signin?token=" + token)
	is.True(b.has("Sign in to the console"))
	b.post("/console/signin", url.Values{"token": {token}})
	is.Equal(b.status, http.StatusSeeOther)

	again := h.browser()
	is.Equal(again.get("/console/signin?token="+token), http.StatusUnauthorized)
	is.True(again.has("already used"))
	is.True(!again.has(`name="token"`)) // no form to press
	is.Equal(again.get("/console/signin?token=made-up"), http.StatusUnauthorized)
	is.True(again.has("not valid"))
	old := h.link(u)
	h.advance(16 * time.Minute)
	is.Equal(again.get("/console/signin?token="+old), http.StatusUnauthorized)
	is.True(again.has("expired"))

	// Pages a visitor sees before signing in set no cookie: nothing is
	// written for them.
	for _, path := range []string{"/console/signin", "/console/signin?token=made-up", "/console/no-such-page", "/console/"} {
		stranger := h.browser()
		stranger.get(path)
		is.Equal(stranger.header.Values("Set-Cookie"), nil)
	}
}

// TestLiveBanner: a live user's every page says LIVE, and no page says
// sandbox; a sandbox user's says SANDBOX.
func TestLiveBanner(t *testing.T) {
	is := is.New(t)
	h := newHarness(t, harnessOpts{})
	live, _ := h.newUser("asha@example.com", true)
	sandbox, _ := h.newUser("asha@example.com", false)
	lb, sb := h.signIn(live), h.signIn(sandbox)
	for _, path := range []string{"/console/", "/console/payouts", "/console/payouts/new?key=3f0c8a52-8a51-4c3e-9a0e-2f1d7c9b6a01", "/console/firas", "/console/tax", "/console/settings", "/console/nowhere"} {
		lb.get(path)
		is.True(strings.Contains(lb.page, `<p class="mode mode-live"><span class="visually-hidden">Mode: </span>LIVE</p>`))
		is.True(lb.has("<strong>Live.</strong> Payouts here move real money"))
		is.True(!strings.Contains(strings.ToLower(lb.page), "sandbox"))
		sb.get(path)
		is.True(sb.has(`<p class="mode mode-sandbox"><span class="visually-hidden">Mode: </span>SANDBOX</p>`))
		is.True(!sb.has("LIVE"))
	}
}
