package server_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/kyc"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/server"
	"github.com/payoutd/payoutd/store"
)

// verifyServer starts a second payoutd server on e's database, with the
// static files (the harness's server has none) and its own address as the
// base URL so that redirectUrl can be followed. The API works on it too.
func verifyServer(t *testing.T, e *env, baseScheme string) string {
	t.Helper()
	hs := httptest.NewUnstartedServer(nil)
	base := baseScheme + "://" + hs.Listener.Addr().String()
	srv, err := server.New(context.Background(), e.DB, server.Config{
		BaseURL: base, Sealer: e.Sealer, Rates: rates.Default(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	hs.Config.Handler = srv
	hs.Start()
	t.Cleanup(hs.Close)
	return hs.URL
}

// newVerifyEnv is an env whose requests go to a server with the hosted
// page. Its clock stands still: the sandbox provider moves only when a test
// makes a step due (kycBackdate).
func newVerifyEnv(t *testing.T) *env {
	e := newEnv(t, func(o *envOpts) { o.noRiver = true }, stopClock)
	e.URL = verifyServer(t, e, "http")
	return e
}

// pageClient is a cookie-keeping browser stand-in that does not follow
// redirects, so each step's status is visible.
type pageClient struct {
	t *testing.T
	c *http.Client
}

type pageResp struct {
	Status int
	Header http.Header
	Body   string
}

func newPageClient(t *testing.T) *pageClient {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &pageClient{t: t, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (p *pageClient) do(req *http.Request) pageResp {
	p.t.Helper()
	res, err := p.c.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		p.t.Fatal(err)
	}
	return pageResp{Status: res.StatusCode, Header: res.Header, Body: string(b)}
}

func (p *pageClient) get(u string) pageResp {
	p.t.Helper()
	req, err := http.NewRequest("GET", u, nil)
	if err != nil {
		p.t.Fatal(err)
	}
	return p.do(req)
}

func (p *pageClient) post(u string, form url.Values) pageResp {
	p.t.Helper()
	req, err := http.NewRequest("POST", u, strings.NewReader(form.Encode()))
	if err != nil {
		p.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return p.do(req)
}

func (p *pageClient) upload(u, csrf, kind, filename string, data []byte) pageResp {
	p.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range map[string]string{"csrf": csrf, "action": "document", "kind": kind} {
		if err := mw.WriteField(k, v); err != nil {
			p.t.Fatal(err)
		}
	}
	fw, err := mw.CreateFormFile("document", filename)
	if err != nil {
		p.t.Fatal(err)
	}
	fw.Write(data)
	mw.Close()
	req, err := http.NewRequest("POST", u, &body)
	if err != nil {
		p.t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return p.do(req)
}

var csrfRE = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

func csrfIn(t *testing.T, body string) string {
	t.Helper()
	m := csrfRE.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no csrf token in page:\n%s", body)
	}
	return m[1]
}

// heading is the page's first <h1> text.
func heading(body string) string {
	_, rest, ok := strings.Cut(body, "<h1")
	if !ok {
		return ""
	}
	_, rest, _ = strings.Cut(rest, ">")
	h, _, _ := strings.Cut(rest, "</h1>")
	return strings.TrimSpace(h)
}

// Smallest files of each kind; the server sniffs content, not names.
var (
	pngFile  = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")
	pdfFile  = []byte("%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n")
	jpegFile = []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xff\xd9")
)

// kycStartURL starts KYC for key and returns the verification link.
func kycStartURL(e *env, key string) string {
	e.t.Helper()
	r := e.reqAs(key, "POST", "/api/v1/kyc/start", nil)
	if r.Status != http.StatusOK || r.JSON(e.t)["redirectUrl"] == nil {
		e.t.Fatalf("kyc/start: %d %s", r.Status, r.Body)
	}
	return r.JSON(e.t)["redirectUrl"].(string)
}

// kycBackdate makes the sandbox provider's next step due now.
func kycBackdate(e *env, userID string) {
	e.t.Helper()
	if _, err := e.SQL.Exec("UPDATE kyc SET updated_at = 0 WHERE user_id = ?", userID); err != nil {
		e.t.Fatal(err)
	}
}

// identityValues fills the first step; extra values override the valid ones.
func identityValues(csrf string, extra ...string) url.Values {
	v := url.Values{"csrf": {csrf}, "action": {"identity"}, "fullName": {"Asha Rao"}, "pan": {"ABCPE1234F"}, "dob": {"1990-05-17"}}
	for i := 0; i+1 < len(extra); i += 2 {
		v.Set(extra[i], extra[i+1])
	}
	return v
}

func TestVerifyPageApproved(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newVerifyEnv(t)
	link := kycStartURL(e, e.Key)
	is.True(strings.HasPrefix(link, e.URL+"/verify/kys_"))
	b := newPageClient(t)

	p := b.get(link)
	is.Equal(p.Status, http.StatusOK)
	is.Equal(heading(p.Body), "Your details")
	is.True(strings.HasPrefix(p.Header.Get("Content-Type"), "text/html"))
	is.True(strings.Contains(p.Header.Get("Content-Security-Policy"), "default-src 'none'"))
	is.Equal(p.Header.Get("Referrer-Policy"), "no-referrer")
	cookie := p.Header.Get("Set-Cookie")
	is.True(strings.HasPrefix(cookie, "payoutd_verify="))
	is.True(strings.Contains(cookie, "HttpOnly"))
	is.True(strings.Contains(cookie, "SameSite=Lax"))
	is.True(strings.Contains(cookie, "Path=/verify"))
	is.True(!strings.Contains(cookie, "Secure")) // the base URL is http
	var sessions int
	is.NoErr(e.SQL.QueryRow("SELECT count(*) FROM sessions").Scan(&sessions))
	is.Equal(sessions, 1) // the browser session is stored in SQLite

	csrf := csrfIn(t, p.Body)
	p = b.post(link, identityValues(csrf))
	is.Equal(p.Status, http.StatusSeeOther)
	is.Equal(p.Header.Get("Location"), strings.TrimPrefix(link, e.URL))
	p = b.get(link)
	is.Equal(heading(p.Body), "Upload a document")

	p = b.upload(link, csrfIn(t, p.Body), "pan_card", `C:\scans\pan card.png`, pngFile)
	is.Equal(p.Status, http.StatusSeeOther)
	is.Equal(kycStatusOf(e, e.Key).Status, "DOCS_SUBMITTED")

	// The document is stored sealed, with the SHA-256 of what was sent.
	var id, name, ctype, sum, kind string
	var size int
	var sealed []byte
	is.NoErr(e.SQL.QueryRow("SELECT id, filename, content_type, size, sha256, kind, data FROM kyc_documents WHERE user_id = ?", e.UserID).
		Scan(&id, &name, &ctype, &size, &sum, &kind, &sealed))
	want := sha256.Sum256(pngFile)
	is.Equal(sum, hex.EncodeToString(want[:]))
	is.Equal(name, "pan card.png")
	is.Equal(ctype, "image/png")
	is.Equal(kind, "pan_card")
	is.Equal(size, len(pngFile))
	is.True(!bytes.Contains(sealed, pngFile[:8]))
	plain, err := e.Sealer.Open(sealed, []byte(id))
	is.NoErr(err)
	is.Equal(plain, pngFile)

	// The review shows itself live: the page polls a JSON status.
	p = b.get(link)
	is.Equal(heading(p.Body), "Documents received")
	is.True(strings.Contains(p.Body, `data-poll="/verify/`))
	is.True(strings.Contains(p.Body, `<noscript><meta http-equiv="refresh"`))
	kycBackdate(e, e.UserID)
	st := b.get(link + "/status")
	is.Equal(st.Status, http.StatusOK)
	is.True(strings.Contains(st.Body, `"status":"UNDER_REVIEW"`))
	is.True(strings.Contains(st.Body, `"final":false`))
	kycBackdate(e, e.UserID)
	st = b.get(link + "/status")
	is.True(strings.Contains(st.Body, `"status":"APPROVED"`))
	is.True(strings.Contains(st.Body, `"final":true`))
	p = b.get(link)
	is.Equal(heading(p.Body), "You are verified")
	is.Equal(kycMoves(e, e.UserID), []string{"PENDING>IN_PROGRESS", "IN_PROGRESS>DOCS_SUBMITTED",
		"DOCS_SUBMITTED>UNDER_REVIEW", "UNDER_REVIEW>APPROVED"})

	// A form sent again after the decision changes nothing: it shows the outcome.
	p = b.post(link, identityValues(csrf, "fullName", "Someone Else"))
	is.Equal(p.Status, http.StatusSeeOther)
	ident, err := e.DB.People().KYCIdentityOf(context.Background(), e.UserID)
	is.NoErr(err)
	is.Equal(ident.FullName, "Asha Rao")
	is.Equal(kycStatusOf(e, e.Key).Status, "APPROVED")
	verified, err := e.DB.History().VerifyAudit(context.Background())
	is.NoErr(err)
	is.True(verified.Intact)
}

func TestVerifyPageRejectedThenResubmitted(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newVerifyEnv(t)
	link := kycStartURL(e, e.Key)
	b := newPageClient(t)
	p := b.get(link)
	csrf := csrfIn(t, p.Body)
	is.Equal(b.post(link, identityValues(csrf, "fullName", "Asha Reject")).Status, http.StatusSeeOther)
	is.Equal(b.upload(link, csrf, "passport", "passport.pdf", pdfFile).Status, http.StatusSeeOther)
	kycBackdate(e, e.UserID)
	b.get(link + "/status")
	kycBackdate(e, e.UserID)
	p = b.get(link)
	is.Equal(heading(p.Body), "Verification not approved")
	is.True(strings.Contains(p.Body, "SANDBOX_REJECTED"))
	is.True(strings.Contains(p.Body, "resubmit 3 more times"))
	st := kycStatusOf(e, e.Key)
	is.Equal(st.Status, "REJECTED")
	is.Equal(st.AllowedTransitions, []string{"DOCS_SUBMITTED"})

	// "Try again" issues a new link bound to this browser.
	p = b.post(link, url.Values{"csrf": {csrf}, "action": {"resubmit"}})
	is.Equal(p.Status, http.StatusSeeOther)
	next := e.URL + p.Header.Get("Location")
	is.True(next != link)
	p = b.get(next)
	is.Equal(p.Status, http.StatusOK)
	is.Equal(heading(p.Body), "Your details")
	is.True(strings.Contains(p.Body, `value="Asha Reject"`)) // prefilled from the last attempt
	csrf = csrfIn(t, p.Body)
	is.Equal(b.post(next, identityValues(csrf, "fullName", "Asha Rao")).Status, http.StatusSeeOther)
	is.Equal(b.upload(next, csrf, "aadhaar", "aadhaar.jpg", jpegFile).Status, http.StatusSeeOther)
	is.Equal(kycStatusOf(e, e.Key).Status, "DOCS_SUBMITTED")
	kycBackdate(e, e.UserID)
	b.get(next + "/status")
	kycBackdate(e, e.UserID)
	is.Equal(heading(b.get(next).Body), "You are verified")

	var attempts int
	is.NoErr(e.SQL.QueryRow("SELECT attempts FROM kyc WHERE user_id = ?", e.UserID).Scan(&attempts))
	is.Equal(attempts, 1)
	// The first link was replaced.
	p = b.get(link)
	is.Equal(p.Status, http.StatusGone)
	is.Equal(heading(p.Body), "Link replaced")
}

func TestVerifyPageProblems(t *testing.T) {
	t.Parallel()
	e := newVerifyEnv(t)
	link := kycStartURL(e, e.Key)
	owner := newPageClient(t)
	first := owner.get(link)
	csrf := csrfIn(t, first.Body)
	cases := []struct {
		name    string
		do      func() pageResp
		status  int
		heading string
	}{
		{"UnknownLink", func() pageResp { return owner.get(e.URL + "/verify/kys_unknown") }, 404, "Link not found"},
		{"OtherBrowserGet", func() pageResp { return newPageClient(t).get(link) }, 403, "Link opened elsewhere"},
		{"OtherBrowserPost", func() pageResp { return newPageClient(t).post(link, identityValues(csrf)) }, 403, "Link opened elsewhere"},
		{"MissingCSRF", func() pageResp { return owner.post(link, identityValues("")) }, 403, "Form expired"},
		{"WrongCSRF", func() pageResp { return owner.post(link, identityValues(csrf+"x")) }, 403, "Form expired"},
		{"UnknownAction", func() pageResp { return owner.post(link, url.Values{"csrf": {csrf}, "action": {"approve"}}) }, 403, "Form expired"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			p := c.do()
			is.Equal(p.Status, c.status)
			is.Equal(heading(p.Body), c.heading)
			is.True(strings.HasPrefix(p.Header.Get("Content-Type"), "text/html"))
			is.True(strings.Contains(p.Body, `href="/verify/assets/verify.css?v=`)) // styled, not a bare error
			is.True(!strings.Contains(p.Body, "goroutine"))
		})
	}
	t.Run("StatusFromOtherBrowser", func(t *testing.T) {
		is := is.New(t)
		p := newPageClient(t).get(link + "/status")
		is.Equal(p.Status, http.StatusNotFound)
		is.True(strings.Contains(p.Body, "ERR_NOT_FOUND"))
	})
	t.Run("NothingChanged", func(t *testing.T) {
		is := is.New(t)
		is.Equal(kycStatusOf(e, e.Key).Status, "IN_PROGRESS")
		var identityAt *int64
		is.NoErr(e.SQL.QueryRow("SELECT identity_at FROM kyc_sessions WHERE id = ?", link[strings.LastIndex(link, "/")+1:]).Scan(&identityAt))
		is.True(identityAt == nil)
	})
	t.Run("Expired", func(t *testing.T) {
		is := is.New(t)
		_, err := e.SQL.Exec("UPDATE kyc_sessions SET expires_at = 0")
		is.NoErr(err)
		p := owner.get(link)
		is.Equal(p.Status, http.StatusGone)
		is.Equal(heading(p.Body), "Link expired")
		// A new start hands out a fresh link.
		next := kycStartURL(e, e.Key)
		is.True(next != link)
		is.Equal(newPageClient(t).get(next).Status, http.StatusOK)
	})
}

func TestVerifyIdentityRules(t *testing.T) {
	t.Parallel()
	e := newVerifyEnv(t)
	link := kycStartURL(e, e.Key)
	b := newPageClient(t)
	csrf := csrfIn(t, b.get(link).Body)
	today := time.Now().UTC()
	cases := []struct {
		name, field, value string
	}{
		{"ErrNameEmpty", "fullName", "  "},
		{"ErrNameShort", "fullName", "A"},
		{"ErrNameTooLong", "fullName", strings.Repeat("a", 101)},
		{"ErrNameDigits", "fullName", "Asha R4o"},
		{"ErrNameMarkup", "fullName", "<b>Asha</b>"},
		{"ErrPANEmpty", "pan", ""},
		{"ErrPANFormat", "pan", "ABCPE12345"},
		{"ErrPANHolderType", "pan", "ABCXE1234F"},
		{"ErrDOBEmpty", "dob", ""},
		{"ErrDOBFormat", "dob", "17/05/1990"},
		{"ErrDOBNotADate", "dob", "1990-02-30"},
		{"ErrDOBFuture", "dob", today.AddDate(0, 0, 1).Format("2006-01-02")},
		{"ErrDOBUnder18", "dob", today.AddDate(-18, 0, 1).Format("2006-01-02")},
		{"ErrDOBTooOld", "dob", "1899-12-31"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			p := b.post(link, identityValues(csrf, c.field, c.value))
			is.Equal(p.Status, http.StatusBadRequest)
			is.Equal(heading(p.Body), "Your details")
			is.True(strings.Contains(p.Body, `class="error-summary" role="alert"`))
			is.True(strings.Contains(p.Body, `<a href="#`+c.field+`">`)) // the summary links to the field
			is.True(strings.Contains(p.Body, `id="`+c.field+`-error"`))  // the message sits by the field
			is.Equal(strings.Count(p.Body, `aria-invalid="true"`), 1)    // one violation at a time
			is.True(!strings.Contains(p.Body, "<b>Asha</b>"))            // echoed input is escaped
		})
	}
	t.Run("LowerCasePANIsNormalised", func(t *testing.T) {
		is := is.New(t)
		is.Equal(b.post(link, identityValues(csrf, "pan", " abcpe1234f ", "fullName", "Ravi  Kumar")).Status, http.StatusSeeOther)
		id, err := e.DB.People().KYCIdentityOf(context.Background(), e.UserID)
		is.NoErr(err)
		is.Equal(id.PAN, "ABCPE1234F")
		is.Equal(id.FullName, "Ravi Kumar")
		// The details step can be revisited from the upload step.
		p := b.get(link + "?step=details")
		is.Equal(heading(p.Body), "Your details")
		is.True(strings.Contains(p.Body, `value="Ravi Kumar"`))
	})
	t.Run("AuditHoldsNoPersonalData", func(t *testing.T) {
		is := is.New(t)
		var changes string
		is.NoErr(e.SQL.QueryRow("SELECT changes FROM audit_log WHERE action = 'kyc.identity_submitted'").Scan(&changes))
		is.True(!strings.Contains(changes, "ABCPE1234F"))
		is.True(!strings.Contains(changes, "Ravi"))
	})
}

func TestVerifyDocumentRules(t *testing.T) {
	t.Parallel()
	e := newVerifyEnv(t)
	link := kycStartURL(e, e.Key)
	b := newPageClient(t)
	csrf := csrfIn(t, b.get(link).Body)
	t.Run("ErrIdentityFirst", func(t *testing.T) {
		is := is.New(t)
		p := b.upload(link, csrf, "pan_card", "pan.png", pngFile)
		is.Equal(p.Status, http.StatusSeeOther) // back to the step the user is at
		is.Equal(heading(b.get(link).Body), "Your details")
		is.Equal(kycStatusOf(e, e.Key).Status, "IN_PROGRESS")
	})
	is.New(t).Equal(b.post(link, identityValues(csrf)).Status, http.StatusSeeOther)
	big := append(append([]byte{}, pngFile...), make([]byte, 5<<20-len(pngFile)+1)...)
	gif := []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;")
	cases := []struct {
		name, kind, file string
		data             []byte
		status           int
		field            string
	}{
		{"ErrKindUnknown", "selfie", "pan.png", pngFile, 400, "kind"},
		{"ErrEmpty", "pan_card", "pan.png", nil, 400, "document"},
		{"ErrText", "pan_card", "pan.png", []byte("hello, I am a PNG"), 415, "document"},
		{"ErrGIF", "pan_card", "pan.gif", gif, 415, "document"},
		{"ErrHTML", "pan_card", "pan.pdf", []byte("<html><script>alert(1)</script>"), 415, "document"},
		{"ErrTooLarge", "pan_card", "pan.png", big, 413, "document"},
		{"ErrBodyOverLimit", "pan_card", "pan.png", append(big, make([]byte, 1<<20)...), 413, "document"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			p := b.upload(link, csrf, c.kind, c.file, c.data)
			is.Equal(p.Status, c.status)
			is.Equal(heading(p.Body), "Upload a document")
			is.True(strings.Contains(p.Body, `id="`+c.field+`-error"`))
			var n int
			is.NoErr(e.SQL.QueryRow("SELECT count(*) FROM kyc_documents").Scan(&n))
			is.Equal(n, 0)
		})
	}
	t.Run("ExactlyFiveMiB", func(t *testing.T) {
		is := is.New(t)
		p := b.upload(link, csrf, "pan_card", "pan.png", big[:5<<20])
		is.Equal(p.Status, http.StatusSeeOther)
		is.Equal(kycStatusOf(e, e.Key).Status, "DOCS_SUBMITTED")
	})
	t.Run("ErrSecondUploadIsRefused", func(t *testing.T) {
		is := is.New(t)
		p := b.upload(link, csrf, "pan_card", "pan.png", pngFile)
		is.Equal(p.Status, http.StatusSeeOther) // shows the review; stores nothing
		var n int
		is.NoErr(e.SQL.QueryRow("SELECT count(*) FROM kyc_documents").Scan(&n))
		is.Equal(n, 1)
		is.Equal(len(kycMoves(e, e.UserID)), 2)
	})
}

func TestVerifyCookieSecureOnHTTPS(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t, func(o *envOpts) { o.noRiver = true }, stopClock)
	e.URL = verifyServer(t, e, "https") // the base URL says https; the test speaks http
	link := kycStartURL(e, e.Key)
	is.True(strings.HasPrefix(link, "https://"))
	p := newPageClient(t).get(strings.Replace(link, "https://", "http://", 1))
	is.Equal(p.Status, http.StatusOK)
	is.True(strings.Contains(p.Header.Get("Set-Cookie"), "; Secure"))
}

func TestVerifyAssets(t *testing.T) {
	t.Parallel()
	e := newVerifyEnv(t)
	b := newPageClient(t)
	page := b.get(e.URL + "/verify/kys_unknown").Body
	for _, name := range []string{"verify.css", "verify.js"} {
		t.Run(name, func(t *testing.T) {
			is := is.New(t)
			m := regexp.MustCompile(`/verify/assets/` + regexp.QuoteMeta(name) + `\?v=[0-9a-f]+`).FindString(page)
			is.True(m != "")
			p := b.get(e.URL + m)
			is.Equal(p.Status, http.StatusOK)
			is.True(strings.Contains(p.Header.Get("Cache-Control"), "immutable"))
			is.True(len(p.Body) > 500)
			p = b.get(e.URL + "/verify/assets/" + name + "?v=old")
			is.Equal(p.Header.Get("Cache-Control"), "no-cache")
		})
	}
}

// TestSandboxReviewer: a sandbox submission queues the provider's review
// as a River job, which takes the record to its decision without anyone
// reading it, so kyc.updated is emitted on time; a live user waits for the
// operator, even when read.
func TestSandboxReviewer(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t) // River's workers run
	e.URL = verifyServer(t, e, "http")
	liveKey, liveID, _ := e.newUser("live@example.com", true, store.AllScopes)
	kycSetState(e, liveID, store.KYCDocsSubmitted, 0)
	kycBackdate(e, liveID)

	link := kycStartURL(e, e.Key)
	b := newPageClient(t)
	p := b.get(link)
	is.Equal(b.post(link, identityValues(csrfIn(t, p.Body))).Status, http.StatusSeeOther)
	p = b.get(link)
	is.Equal(b.upload(link, csrfIn(t, p.Body), "pan_card", "pan.png", pngFile).Status, http.StatusSeeOther)

	// Only the database is read from here on: nothing asks for the status.
	wait.For(t, kyc.SandboxPickup+kyc.SandboxDecide+30*time.Second, func() error {
		var status string
		is.NoErr(e.SQL.QueryRow("SELECT status FROM kyc WHERE user_id = ?", e.UserID).Scan(&status))
		if status != store.KYCApproved {
			return fmt.Errorf("status %s, want APPROVED", status)
		}
		return nil
	})
	is.Equal(kycMoves(e, e.UserID), []string{"PENDING>IN_PROGRESS", "IN_PROGRESS>DOCS_SUBMITTED",
		"DOCS_SUBMITTED>UNDER_REVIEW", "UNDER_REVIEW>APPROVED"})
	var byProvider, events int
	is.NoErr(e.SQL.QueryRow("SELECT count(*) FROM audit_log WHERE user_id = ? AND action = 'kyc.updated' AND actor = ?",
		e.UserID, kyc.SandboxActor).Scan(&byProvider))
	is.Equal(byProvider, 2) // both review steps are the provider's
	is.NoErr(e.SQL.QueryRow("SELECT count(*) FROM events WHERE user_id = ? AND type = 'kyc.updated'", e.UserID).Scan(&events))
	is.Equal(events, 4)
	// A live user has no provider here: it waits, even when read.
	is.Equal(kycStatusOf(e, liveKey).Status, "DOCS_SUBMITTED")
}
