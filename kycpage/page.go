// Package kycpage is the hosted KYC flow at {base_url}/verify/{sessionId}:
// server-rendered html/template pages (assets/, embedded), a browser
// session (scs, stored in SQLite) that binds the link to the first browser
// that opens it, and a CSRF token on every form. The server mounts it
// (Register); its stylesheet is shared with payoutd's other pages
// (Stylesheet).
package kycpage

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html/template"
	"log/slog"
	"net/http"
	"strings"

	"github.com/alexedwards/scs/v2"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/kyc"
	"github.com/payoutd/payoutd/store"
)

//go:embed assets
var files embed.FS

// Config is what the page needs from the server that mounts it.
type Config struct {
	DB      *store.DB
	Sealer  *store.Sealer // seals uploaded documents
	BaseURL string        // an https base URL makes the session cookie Secure
	Log     *slog.Logger
	// RequestID is the request's id (the server's middleware sets it), and
	// WriteError answers an API error in the API's JSON error body (the
	// page's live status poll).
	RequestID  func(*http.Request) string
	WriteError func(http.ResponseWriter, *http.Request, error)
}

// Page is the hosted KYC flow.
type Page struct {
	cfg      Config
	sessions *scs.SessionManager
	tmpl     *template.Template
	assets   map[string]asset // by file name under assets/
}

type asset struct {
	body        []byte
	contentType string
	version     string // content hash, appended to URLs so they can be cached for good
}

// pageAssets are the files the page serves besides its templates.
var pageAssets = map[string]string{"verify.css": "text/css; charset=utf-8", "verify.js": "text/javascript; charset=utf-8"}

// Stylesheet is the page's CSS: system fonts, the palette as custom
// properties on :root, focus and form styles. Other server-rendered pages
// (the console) serve it too, so payoutd's pages look alike.
func Stylesheet() []byte {
	b, err := files.ReadFile("assets/verify.css")
	if err != nil {
		panic(err) // embedded: a missing file is a build defect
	}
	return b
}

// Register mounts the page on mux.
func (v *Page) Register(mux *http.ServeMux) {
	page := func(h http.HandlerFunc) http.Handler { return v.sessions.LoadAndSave(h) }
	mux.Handle("GET /verify/{sessionId}", page(v.handleShow))
	mux.Handle("POST /verify/{sessionId}", page(v.handlePost))
	mux.Handle("GET /verify/{sessionId}/status", page(v.handleStatus))
	// One exact pattern per file: "/verify/assets/{file}" would overlap
	// "/verify/{sessionId}/status" and ServeMux refuses that.
	for name := range pageAssets {
		mux.Handle("GET /verify/assets/"+name, v.assetHandler(name))
	}
}

// New parses the page's templates and sets up its browser sessions. The
// files are embedded: an error is a build defect the tests catch.
func New(cfg Config) (*Page, error) {
	v := &Page{cfg: cfg, assets: map[string]asset{}}
	for name, ct := range pageAssets {
		b, err := files.ReadFile("assets/" + name)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(b)
		v.assets[name] = asset{body: b, contentType: ct, version: hex.EncodeToString(sum[:6])}
	}
	v.tmpl = template.New("verify").Funcs(template.FuncMap{
		"asset": func(name string) string { return "/verify/assets/" + name + "?v=" + v.assets[name].version },
		"inc":   func(i int) int { return i + 1 },
	})
	for _, name := range []string{"layout.html", "steps.html", "outcome.html"} {
		b, err := files.ReadFile("assets/" + name)
		if err != nil {
			return nil, err
		}
		if _, err := v.tmpl.New(name).Parse(string(b)); err != nil {
			return nil, fmt.Errorf("kycpage/assets/%s: %w", name, err)
		}
	}
	sm := scs.New()
	sm.Store = store.WebSessions{DB: cfg.DB}
	sm.Lifetime = store.KYCSessionTTL
	sm.HashTokenInStore = true // a copy of the table does not hand out live sessions
	sm.Cookie.Name = "payoutd_verify"
	sm.Cookie.Path = "/verify"
	sm.Cookie.HttpOnly = true
	sm.Cookie.SameSite = http.SameSiteLaxMode
	sm.Cookie.Secure = strings.HasPrefix(cfg.BaseURL, "https://")
	sm.ErrorFunc = func(w http.ResponseWriter, r *http.Request, err error) { v.internalError(w, r, err) }
	v.sessions = sm
	return v, nil
}

// assetHandler serves one of the page's files from memory; a request with
// the current version may cache it for good.
func (v *Page) assetHandler(name string) http.HandlerFunc {
	a := v.assets[name]
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", a.contentType)
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if r.URL.Query().Get("v") == a.version {
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			w.Header().Set("Cache-Control", "no-cache")
		}
		w.Write(a.body)
	}
}

// pageData is everything a template may show.
type pageData struct {
	Title       string
	SessionID   string
	CSRF        string
	View        string // identity, document, review, approved, rejected, problem
	Status      string // the KYC status
	Steps       []progressStep
	Form        identityForm
	Errors      map[string]string
	ErrorList   []fieldProblem
	Kinds       []docKind
	Kind        string
	MaxMB       int
	MaxBytes    int
	Reason      string
	Resubmits   int // resubmissions left after a rejection
	Poll        bool
	Label       string
	Message     string
	ExpiresAt   string
	ProblemCode int
	RequestID   string
}

type fieldProblem struct{ Field, Message string }

type progressStep struct {
	Name, State string // State: done, current, todo or failed
}

// steps is the progress bar: which of the four stages the user is at.
func steps(view string) []progressStep {
	names := []string{"Your details", "Document", "Review", "Decision"}
	at := map[string]int{"identity": 0, "document": 1, "review": 2, "approved": 4, "rejected": 4}[view]
	out := make([]progressStep, len(names))
	for i, n := range names {
		state := "todo"
		if i < at {
			state = "done"
		} else if i == at {
			state = "current"
		}
		out[i] = progressStep{Name: n, State: state}
	}
	if view == "rejected" {
		out[len(out)-1].State = "failed"
	}
	return out
}

// statusText is how each KYC state reads on the page and in the live poll.
func statusText(status string) (label, message string) {
	switch status {
	case store.KYCDocsSubmitted:
		return "Documents received", "Your document is queued for review. This page updates by itself."
	case store.KYCUnderReview:
		return "Under review", "We are checking your details and document. This page updates by itself."
	case store.KYCApproved:
		return "Verified", "Your identity is verified. You can close this window and return to the app."
	case store.KYCRejected:
		return "Not approved", "We could not verify your identity with the details and document provided."
	default:
		return "In progress", "Enter your details and upload a document to continue."
	}
}

// headers are set on every page: nothing from elsewhere may load, the page
// cannot be framed, and the capability URL never leaks in a Referer.
func pageHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cache-Control", "no-store")
}

// render executes the layout into a buffer first, so a template error is a
// clean error page rather than half a page.
func (v *Page) render(w http.ResponseWriter, r *http.Request, status int, d pageData) {
	d.Steps, d.RequestID = steps(d.View), v.cfg.RequestID(r)
	if d.View != "problem" {
		d.Label, d.Message = statusText(d.Status)
	}
	pageHeaders(w)
	var buf bytes.Buffer
	if err := v.tmpl.ExecuteTemplate(&buf, "layout", d); err != nil {
		v.cfg.Log.ErrorContext(r.Context(), "verify page template", slog.String("requestId", v.cfg.RequestID(r)), slog.String("error", err.Error()))
		http.Error(w, "Internal error. Reference "+v.cfg.RequestID(r), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// problem pages: each failure the user can meet has its own words.
var (
	problemUnknown  = pageData{ProblemCode: http.StatusNotFound, Title: "Link not found", Message: "This verification link does not exist. Check that you copied the whole link, or start verification again from the app."}
	problemExpired  = pageData{ProblemCode: http.StatusGone, Title: "Link expired", Message: "This verification link has expired. Start verification again from the app to get a new one."}
	problemReplaced = pageData{ProblemCode: http.StatusGone, Title: "Link replaced", Message: "A newer verification link was issued, so this one no longer works. Use the newest link, or start verification again from the app."}
	problemForeign  = pageData{ProblemCode: http.StatusForbidden, Title: "Link opened elsewhere", Message: "This verification link is already in use in another browser. Continue there, or start verification again from the app to get a new link."}
	problemStale    = pageData{ProblemCode: http.StatusForbidden, Title: "Form expired", Message: "This form is out of date, so it was not sent. Go back to the verification page and try again."}
)

func (v *Page) problem(w http.ResponseWriter, r *http.Request, p pageData) {
	p.View = "problem"
	v.render(w, r, p.ProblemCode, p)
}

func (v *Page) internalError(w http.ResponseWriter, r *http.Request, err error) {
	v.cfg.Log.ErrorContext(r.Context(), "verify page", slog.String("requestId", v.cfg.RequestID(r)), slog.String("error", err.Error()))
	v.problem(w, r, pageData{ProblemCode: http.StatusInternalServerError, Title: "Something went wrong",
		Message: "The page could not be shown because of a problem on our side. Try again in a moment."})
}

// bindKey is the browser-session key that marks a link as bound to it.
func bindKey(sessionID string) string { return "kyc:" + sessionID }

// csrfToken returns the browser session's token, creating it on first use.
func (v *Page) csrfToken(r *http.Request) string {
	ctx := r.Context()
	if t := v.sessions.GetString(ctx, "csrf"); t != "" {
		return t
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	t := base64.RawURLEncoding.EncodeToString(b)
	v.sessions.Put(ctx, "csrf", t)
	return t
}

// open loads the link and its KYC record and checks, in order, that it
// exists, is the newest, is not expired, and belongs to this browser
// (claiming it when claim is set and nobody has). ok=false means a problem
// page was written.
func (v *Page) open(w http.ResponseWriter, r *http.Request, claim bool) (sess store.KYCSession, k store.KYC, ok bool) {
	ctx := r.Context()
	id := r.PathValue("sessionId")
	sess, err := v.cfg.DB.People().FindKYCSession(ctx, id)
	if err == nil {
		k, err = v.cfg.DB.People().KYCStatus(ctx, sess.UserID)
	}
	switch {
	case apperr.Code(err) == apperr.ErrNotFound:
		v.problem(w, r, problemUnknown)
	case err != nil:
		v.internalError(w, r, err)
	case k.SessionID != sess.ID:
		v.problem(w, r, problemReplaced)
	case sess.Expired(v.cfg.DB.Now()):
		v.problem(w, r, problemExpired)
	case v.sessions.GetBool(ctx, bindKey(id)):
		return sess, k, true
	case claim && sess.ClaimedAt == nil:
		var claimed bool
		err := v.cfg.DB.WithTx(ctx, func(tx *store.Tx) (err error) {
			claimed, err = tx.People().ClaimKYCSession(sess)
			return err
		}, store.WithActor("verify:"+id, v.cfg.RequestID(r)))
		if err != nil {
			v.internalError(w, r, err)
			return sess, k, false
		}
		if !claimed { // another browser won the race
			v.problem(w, r, problemForeign)
			return sess, k, false
		}
		// A fresh token on privilege change, so a planted cookie is useless.
		if err := v.sessions.RenewToken(ctx); err != nil {
			v.internalError(w, r, err)
			return sess, k, false
		}
		v.sessions.Put(ctx, bindKey(id), true)
		return sess, k, true
	default:
		v.problem(w, r, problemForeign)
	}
	return sess, k, false
}

// handleShow renders the step the user is at.
func (v *Page) handleShow(w http.ResponseWriter, r *http.Request) {
	sess, k, ok := v.open(w, r, true)
	if !ok {
		return
	}
	k, err := kyc.Current(r.Context(), v.cfg.DB, sess.UserID, v.cfg.RequestID(r))
	if err != nil {
		v.internalError(w, r, err)
		return
	}
	d, err := v.pageFor(r, sess, k, r.URL.Query().Get("step") == "details")
	if err != nil {
		v.internalError(w, r, err)
		return
	}
	v.render(w, r, http.StatusOK, d)
}

// pageFor picks the view for a link in its KYC state: the forms while the
// link may still submit, otherwise the review or its outcome.
func (v *Page) pageFor(r *http.Request, sess store.KYCSession, k store.KYC, editDetails bool) (pageData, error) {
	d := pageData{SessionID: sess.ID, CSRF: v.csrfToken(r), Status: k.Status, ExpiresAt: sess.ExpiresAt.Format("2 Jan 2006, 15:04 UTC"),
		Kinds: docKinds, MaxMB: maxDocumentBytes >> 20, MaxBytes: maxDocumentBytes}
	submittable := sess.SubmittedAt == nil && (k.Status == store.KYCInProgress || k.Status == store.KYCRejected && len(kyc.Allowed(k)) > 0)
	switch {
	case submittable && (sess.IdentityAt == nil || editDetails):
		d.View, d.Title = "identity", "Your details"
		var err error
		if d.Form, err = v.prefill(r, sess.UserID); err != nil {
			return d, err
		}
	case submittable:
		d.View, d.Title = "document", "Upload a document"
	case k.Status == store.KYCApproved:
		d.View, d.Title = "approved", "You are verified"
	case k.Status == store.KYCRejected:
		d.View, d.Title = "rejected", "Verification not approved"
		d.Reason, d.Resubmits = k.Reason, kyc.ResubmitsLeft(k)
	default:
		d.View, d.Title, d.Poll = "review", "Checking your document", true
	}
	return d, nil
}

// handleStatus is the live panel's JSON poll.
func (v *Page) handleStatus(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("sessionId")
	if !v.sessions.GetBool(r.Context(), bindKey(id)) {
		v.cfg.WriteError(w, r, apperr.Errorf(apperr.ErrNotFound, "verification session not found in this browser"))
		return
	}
	sess, err := v.cfg.DB.People().FindKYCSession(r.Context(), id)
	if err != nil {
		v.cfg.WriteError(w, r, err)
		return
	}
	k, err := kyc.Current(r.Context(), v.cfg.DB, sess.UserID, v.cfg.RequestID(r))
	if err != nil {
		v.cfg.WriteError(w, r, err)
		return
	}
	label, message := statusText(k.Status)
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"status": k.Status, "label": label, "message": message,
		"final": k.Status == store.KYCApproved || k.Status == store.KYCRejected})
}
