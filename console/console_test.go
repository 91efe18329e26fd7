package console_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/matryer/is"

	"github.com/payoutd/payoutd/console"
	"github.com/payoutd/payoutd/internal/binarytest"
	"github.com/payoutd/payoutd/store"
)

// browserSession is a cookie-keeping client on a payoutd's console, like one
// browser.
type browserSession struct {
	t    *testing.T
	base string
	c    *http.Client
	last string // the last page's HTML
}

func newBrowserSession(t *testing.T, base string) *browserSession {
	jar, _ := cookiejar.New(nil)
	return &browserSession{t: t, base: base, c: &http.Client{Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (b *browserSession) do(req *http.Request) (int, string, http.Header) {
	b.t.Helper()
	res, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	b.last = string(body)
	return res.StatusCode, res.Header.Get("Location"), res.Header
}

func (b *browserSession) get(path string) (int, string) {
	b.t.Helper()
	req, _ := http.NewRequest("GET", b.abs(path), nil)
	status, loc, _ := b.do(req)
	return status, loc
}

// post sends a form as the page would, with the last page's CSRF token
// unless csrf is false.
func (b *browserSession) post(path string, form url.Values, csrf bool) (int, string) {
	b.t.Helper()
	if csrf {
		form.Set("csrf", b.hidden("csrf"))
	}
	req, _ := http.NewRequest("POST", b.abs(path), strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	status, loc, _ := b.do(req)
	return status, loc
}

func (b *browserSession) abs(path string) string {
	if strings.HasPrefix(path, "http") {
		return path
	}
	return b.base + path
}

// hidden reads a hidden input of the last page.
func (b *browserSession) hidden(name string) string {
	b.t.Helper()
	m := regexp.MustCompile(`name="` + name + `" value="([^"]*)"`).FindStringSubmatch(b.last)
	if m == nil {
		b.t.Fatalf("no hidden %s in the page:\n%s", name, b.last)
	}
	return m[1]
}

// signIn opens a sign-in link and presses its button; a link refused on
// opening has no button, and its status is returned.
func (b *browserSession) signIn(link string) (int, string) {
	b.t.Helper()
	if status, loc := b.get(link); status != http.StatusOK {
		return status, loc
	}
	u, _ := url.Parse(link)
	return b.post("/console/signin", url.Values{"token": {u.Query().Get("token")}}, true)
}

// consoleServer starts payoutd and returns it with the demo user's key.
func consoleServer(t *testing.T, args ...string) (*proc, string, string) {
	dir := t.TempDir()
	p := start(t, dir, args...)
	var key string
	sc := bufio.NewScanner(bytes.NewReader(p.Stdout.Bytes()))
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "sk_sandbox_") {
			key = sc.Text()
		}
	}
	if key == "" {
		t.Fatalf("no demo key in %q", p.Stdout.String())
	}
	return p, dir, key
}

// expiredLink makes a sign-in link for email that expired five minutes ago,
// through the store with its clock set back.
func expiredLink(t *testing.T, dir, base, email string) string {
	t.Helper()
	ctx := context.Background()
	a := openBeside(t, filepath.Join(dir, "payoutd.db"), nil)
	defer a.Close()
	db := a.DB
	db.SetClock(func() time.Time { return time.Now().Add(-store.ConsoleLinkTTL - 5*time.Minute) })
	u, err := db.People().FindUserByEmail(ctx, email, false)
	if err != nil {
		t.Fatal(err)
	}
	var token string
	err = db.WithTx(ctx, func(tx *store.Tx) (err error) {
		token, _, err = tx.Keys().CreateConsoleLink(u)
		return err
	}, store.WithActor("test", ""))
	if err != nil {
		t.Fatal(err)
	}
	return console.SignInURL(base, token)
}

// TestConsoleSignInAndForms drives the console over HTTP as a browser
// would: the first start's link signs in once; a used, an expired and a
// made-up link are refused; the session cookie is HttpOnly, SameSite=Lax
// and scoped to /console; a form without its CSRF token changes nothing; a
// double submit of one rendered form makes one payout; a second user's
// session sees none of the first user's data; sign-out ends the session.
func TestConsoleSignInAndForms(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p, dir, key := consoleServer(t)
	link := regexp.MustCompile(`http://\S+/console/signin\?token=\S+`).FindString(p.Stdout.String())
	is.True(link != "") // the first start prints a link beside the key

	b := newBrowserSession(t, p.URL)
	status, _ := b.get("/console/")
	is.Equal(status, http.StatusSeeOther) // no session: to the sign-in page
	status, _ = b.get(link)
	is.Equal(status, http.StatusOK)
	token, _ := url.Parse(link)
	req, _ := http.NewRequest("POST", p.URL+"/console/signin", strings.NewReader(url.Values{"token": {token.Query().Get("token")}, "csrf": {b.hidden("csrf")}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	status, loc, h := b.do(req)
	is.Equal(status, http.StatusSeeOther)
	is.Equal(loc, "/console/")
	cookie := h.Get("Set-Cookie")
	is.True(strings.Contains(cookie, "payoutd_console="))
	is.True(strings.Contains(cookie, "HttpOnly"))
	is.True(strings.Contains(cookie, "SameSite=Lax"))
	is.True(strings.Contains(cookie, "Path=/console"))
	status, _ = b.get("/console/")
	is.Equal(status, http.StatusOK)
	is.True(strings.Contains(b.last, "SANDBOX"))
	is.True(strings.Contains(b.last, "default-src") == false) // the CSP is a header, not markup

	// The same link again, in another browser: refused as used.
	other := newBrowserSession(t, p.URL)
	status, _ = other.signIn(link)
	is.Equal(status, http.StatusUnauthorized)
	is.True(strings.Contains(other.last, "already used"))
	status, _ = other.signIn(expiredLink(t, dir, p.URL, "demo@payoutd.local"))
	is.Equal(status, http.StatusUnauthorized)
	is.True(strings.Contains(other.last, "expired"))
	status, _ = other.signIn(p.URL + "/console/signin?token=made-up")
	is.Equal(status, http.StatusUnauthorized)
	status, _ = other.get("/console/")
	is.Equal(status, http.StatusSeeOther) // still signed out

	// A form without the CSRF token, or with another session's, does nothing.
	b.get("/console/payouts/new?key=" + uuid.NewString())
	form := url.Values{"idempotencyKey": {b.hidden("idempotencyKey")}, "amount": {"10.00"}, "currency": {"USD"},
		"destinationAddress": {binarytest.Address}}
	status, _ = b.post("/console/payouts/new", form, false)
	is.Equal(status, http.StatusForbidden)
	form.Set("csrf", "not-the-token")
	status, _ = b.post("/console/payouts/new", form, false)
	is.Equal(status, http.StatusForbidden)
	_, body := get(t, p.URL+"/api/v1/payments", key)
	is.True(strings.Contains(string(body), `"total":0`))

	// One rendered form submitted twice makes one payout; so does its
	// confirmation.
	b.get("/console/payouts/new?key=" + uuid.NewString())
	form.Set("csrf", b.hidden("csrf"))
	status, first := b.post("/console/payouts/new", form, false)
	is.Equal(status, http.StatusSeeOther)
	status, second := b.post("/console/payouts/new", form, false)
	is.Equal(status, http.StatusSeeOther)
	is.Equal(first, second)
	is.True(strings.HasSuffix(first, "/confirm"))
	b.get(first)
	confirm := url.Values{"idempotencyKey": {b.hidden("idempotencyKey")}, "vaultId": {b.hidden2(`name="vaultId" value="([^"]*)"`)},
		"csrf": {b.hidden("csrf")}}
	status, done := b.post(first, confirm, false)
	is.Equal(status, http.StatusSeeOther)
	status, again := b.post(first, confirm, false)
	is.Equal(status, http.StatusSeeOther)
	is.Equal(done, again)
	_, body = get(t, p.URL+"/api/v1/payments", key)
	var list struct {
		Total int `json:"total"`
		Items []struct {
			ID string `json:"id"`
		} `json:"items"`
	}
	is.NoErr(json.Unmarshal(body, &list))
	is.Equal(list.Total, 1)
	payID := list.Items[0].ID
	is.Equal(done, "/console/payouts/"+payID)
	// The confirm was audited with the console session as actor.
	_, body = get(t, p.URL+"/api/v1/compliance/audit?resourceId="+payID, key)
	is.True(strings.Contains(string(body), `"actor":"console:csn_`))

	// A second user's session sees none of it.
	cli(t, dir, "keys", "create", "--email", "second@example.com")
	second2 := newBrowserSession(t, p.URL)
	status, _ = second2.signIn(cli(t, dir, "console-link", "--email", "second@example.com", "--base-url", p.URL))
	is.Equal(status, http.StatusSeeOther)
	status, _ = second2.get("/console/payouts/" + payID)
	is.Equal(status, http.StatusNotFound)
	second2.get("/console/payouts")
	is.True(!strings.Contains(second2.last, payID))
	is.True(strings.Contains(second2.last, "second@example.com"))

	// Sign-out ends the session.
	status, _ = b.get("/console/")
	is.Equal(status, http.StatusOK)
	status, loc = b.post("/console/signout", url.Values{}, true)
	is.Equal(status, http.StatusSeeOther)
	is.Equal(loc, "/console/signin?signedout")
	status, _ = b.get("/console/payouts")
	is.Equal(status, http.StatusSeeOther)
}

// hidden2 reads the first match of a pattern's group in the last page.
func (b *browserSession) hidden2(pattern string) string {
	m := regexp.MustCompile(pattern).FindStringSubmatch(b.last)
	if m == nil {
		b.t.Fatalf("no %s in the page", pattern)
	}
	return m[1]
}
