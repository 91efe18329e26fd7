package console

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/payoutd/payoutd/app"
	"github.com/payoutd/payoutd/app/apptest"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/server"
	"github.com/payoutd/payoutd/store"
)

// testAddress is SEP-23's valid ed25519 public key vector.
const testAddress = "GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ"

// harness is one payoutd as serve wires it: a real SQLite file, River, and
// the HTTP API with the console mounted, on a loopback port. The
// database's clock runs ahead of the wall clock by lead, so a test can
// move past a timeout without waiting for it.
type harness struct {
	t      *testing.T
	url    string
	app    *app.App
	db     *store.DB
	con    *Console
	sealer *store.Sealer
	lead   atomic.Int64
}

type harnessOpts struct {
	baseURL string
	river   bool // start River's workers, so payouts move
}

func newHarness(t *testing.T, o harnessOpts) *harness {
	t.Helper()
	if o.baseURL == "" {
		o.baseURL = "http://payoutd.test"
	}
	ctx := context.Background()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	workers := 0
	if o.river {
		workers = 4
	}
	cfg := apptest.Config(t, "", app.Config{Log: log, Workers: workers,
		Pipeline: payout.Pipeline{SubmitBackoff: time.Millisecond, UnknownPoll: 100 * time.Millisecond}})
	sealer := cfg.Sealer
	a, err := app.Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, app: a, db: a.DB, sealer: sealer}
	h.db.SetClock(func() time.Time { return time.Now().Add(time.Duration(h.lead.Load())) })
	h.con, err = New(Config{DB: a.DB, BaseURL: o.baseURL, Sealer: sealer, Rates: rates.Default(), Log: log, RequestID: server.RequestID})
	if err != nil {
		a.Close()
		t.Fatal(err)
	}
	srv, err := server.New(ctx, a.DB, server.Config{BaseURL: o.baseURL, Sealer: sealer, Logger: log, Rates: rates.Default(), Console: h.con})
	if err != nil {
		a.Close()
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv)
	h.url = hs.URL
	t.Cleanup(func() {
		hs.Close()
		if err := a.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	if o.river {
		if err := a.Start(ctx); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// advance moves the database's clock d further ahead of the wall clock.
func (h *harness) advance(d time.Duration) { h.lead.Add(int64(d)) }

// newUser makes a user (sandbox unless live) with an all-scopes API key.
func (h *harness) newUser(email string, live bool) (store.User, string) {
	h.t.Helper()
	var u store.User
	var key string
	err := h.db.WithTx(context.Background(), func(tx *store.Tx) (err error) {
		if u, _, err = tx.People().EnsureUser(email, live, "Asha Rao", h.sealer); err != nil {
			return err
		}
		_, key, err = tx.Keys().CreateAPIKey(u, "test", store.AllScopes)
		return err
	}, store.WithActor("test", ""))
	if err != nil {
		h.t.Fatal(err)
	}
	return u, key
}

// link makes a sign-in link's token for u.
func (h *harness) link(u store.User) string {
	h.t.Helper()
	var token string
	err := h.db.WithTx(context.Background(), func(tx *store.Tx) (err error) {
		token, _, err = tx.Keys().CreateConsoleLink(u)
		return err
	}, store.WithActor("test", ""))
	if err != nil {
		h.t.Fatal(err)
	}
	return token
}

// api calls the HTTP API with a key and returns the status and body.
func (h *harness) api(method, path, key, body string) (int, string) {
	h.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, h.url+path, rd)
	req.Header.Set("Authorization", "Bearer "+key)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// browser is one browser on the console: it keeps cookies, does not follow
// redirects, and checks every HTML page it is shown.
type browser struct {
	t      *testing.T
	h      *harness
	c      *http.Client
	status int
	header http.Header
	page   string // the last response's body
}

func (h *harness) browser() *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: h.t, h: h, c: &http.Client{Jar: jar,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// signIn opens a fresh link of u and presses Sign in; it fails the test
// unless that lands on Home.
func (h *harness) signIn(u store.User) *browser {
	h.t.Helper()
	b := h.browser()
	b.get("/console/signin?token=" + h.link(u))
	if b.status != http.StatusOK {
		h.t.Fatalf("sign-in page: %d\n%s", b.status, b.page)
	}
	b.post("/console/signin", url.Values{"token": {b.hidden("token")}})
	if b.status != http.StatusSeeOther || b.location() != "/console/" {
		h.t.Fatalf("sign-in: %d to %q\n%s", b.status, b.location(), b.page)
	}
	return b
}

func (b *browser) do(method, path string, form url.Values) int {
	b.t.Helper()
	var rd io.Reader
	if form != nil {
		rd = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, b.h.url+path, rd)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	res, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	b.status, b.header, b.page = res.StatusCode, res.Header, string(body)
	if strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		checkMarkup(b.t, method+" "+path, b.page)
	}
	return b.status
}

func (b *browser) get(path string) int { b.t.Helper(); return b.do("GET", path, nil) }

// post submits a form as the last page would: with its CSRF token.
func (b *browser) post(path string, form url.Values) int {
	b.t.Helper()
	form.Set("csrf", b.hidden("csrf"))
	return b.do("POST", path, form)
}

// forge submits a form without a CSRF token, as another site could.
func (b *browser) forge(path string, form url.Values) int {
	b.t.Helper()
	return b.do("POST", path, form)
}

func (b *browser) location() string { return b.header.Get("Location") }

// follow opens where the last response redirected to.
func (b *browser) follow() int {
	b.t.Helper()
	if b.status != http.StatusSeeOther {
		b.t.Fatalf("no redirect to follow: %d\n%s", b.status, b.page)
	}
	return b.get(b.location())
}

// hidden reads the value of the last page's first input of that name.
func (b *browser) hidden(name string) string {
	b.t.Helper()
	m := regexp.MustCompile(`name="` + regexp.QuoteMeta(name) + `" value="([^"]*)"`).FindStringSubmatch(b.page)
	if m == nil {
		b.t.Fatalf("no input %s in the page:\n%s", name, b.page)
	}
	return m[1]
}

// errorNextTo reads the message shown next to the element with that id.
func (b *browser) errorNextTo(id string) string {
	b.t.Helper()
	m := regexp.MustCompile(`id="` + regexp.QuoteMeta(id) + `-error"><span class="visually-hidden">Error: </span>([^<]*)<`).FindStringSubmatch(b.page)
	if m == nil {
		return ""
	}
	return m[1]
}

// has reports whether the last page shows s.
func (b *browser) has(s string) bool { return strings.Contains(b.page, s) }

var (
	idAttr    = regexp.MustCompile(`\sid="([^"]+)"`)
	labelFor  = regexp.MustCompile(`<label[^>]*\sfor="([^"]+)"`)
	postForm  = regexp.MustCompile(`(?s)<form[^>]*method="post"[^>]*>.*?</form>`)
	csrfInput = regexp.MustCompile(`<input type="hidden" name="csrf" value="[A-Za-z0-9_-]{43}">`)
	cardTable = regexp.MustCompile(`(?s)<table class="cards">.*?</table>`)
	cell      = regexp.MustCompile(`<td[^>]*>`)
)

// checkMarkup holds every console page to what a browser needs of it: ids
// are unique (a label, a summary link or aria-describedby then points at
// the one element meant), every label names an element on the page, and
// every form that posts carries the session's CSRF token, and every cell
// of a table that a phone shows as cards says its column.
func checkMarkup(t *testing.T, what, page string) {
	t.Helper()
	ids := map[string]bool{}
	for _, m := range idAttr.FindAllStringSubmatch(page, -1) {
		if ids[m[1]] {
			t.Errorf("%s: id %q is used twice", what, m[1])
		}
		ids[m[1]] = true
	}
	for _, m := range labelFor.FindAllStringSubmatch(page, -1) {
		if !ids[m[1]] {
			t.Errorf("%s: a label is for %q, which no element has", what, m[1])
		}
	}
	for _, tbl := range cardTable.FindAllString(page, -1) {
		for _, td := range cell.FindAllString(tbl, -1) {
			if !strings.Contains(td, "data-label=") && !strings.Contains(td, "colspan=") {
				t.Errorf("%s: a cell of a table shown as cards on a phone has no data-label: %s", what, td)
			}
		}
	}
	for _, f := range postForm.FindAllString(page, -1) {
		if !csrfInput.MatchString(f) {
			t.Errorf("%s: a form posts without the CSRF token:\n%s", what, f)
		}
	}
}
