package console

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/kycpage"
)

//go:embed templates/*.html assets/console.css
var files embed.FS

// views are the parsed templates: the layout with its partials, cloned once
// per page so each page defines its own "content".
type views struct {
	pages      map[string]*template.Template
	css        []byte
	cssVersion string
}

func loadViews() (*views, error) {
	v := &views{pages: map[string]*template.Template{}}
	own, err := files.ReadFile("assets/console.css")
	if err != nil {
		return nil, err
	}
	// One stylesheet: the KYC page's (the palette and the shared form
	// styles), then the console's own rules, which build on it.
	v.css = append(append(kycpage.Stylesheet(), '\n'), own...)
	sum := sha256.Sum256(v.css)
	v.cssVersion = hex.EncodeToString(sum[:6])
	base := template.New("base").Funcs(funcs(v.cssVersion))
	if base, err = base.ParseFS(files, "templates/_*.html"); err != nil {
		return nil, err
	}
	names, err := fs.Glob(files, "templates/*.html")
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		name := strings.TrimSuffix(strings.TrimPrefix(n, "templates/"), ".html")
		if strings.HasPrefix(name, "_") {
			continue
		}
		t, err := template.Must(base.Clone()).ParseFS(files, n)
		if err != nil {
			return nil, fmt.Errorf("console template %s: %w", n, err)
		}
		v.pages[name] = t
	}
	return v, nil
}

// page is what the layout shows around a page's content.
type page struct {
	Title     string
	Nav       string // the section the page belongs to
	User      *user
	Unread    string // the user's unread notices, "" when none, "99+" beyond
	CSRF      string
	Flash     string
	Errors    map[string]string
	ErrorList []fieldProblem
	Message   string // a problem page's text
	RequestID string
	Data      any
	// signInForm marks the one page with a form before sign-in; no other
	// page starts a session for a visitor who is not signed in.
	signInForm bool
}

type fieldProblem struct{ Field, Message string }

// setErrors shows an error's field messages next to their fields and, led
// by the field's label, in the summary; an error that names no field shows
// its message alone. Fields are found by their API names, which are the
// inputs' ids unless ids maps a name to the id it has on this page (where
// two forms have a field of the same name).
func (p *page) setErrors(err error, ids ...map[string]string) {
	var e *apperr.Error
	if !errors.As(err, &e) {
		return
	}
	p.Errors = map[string]string{}
	for _, f := range slices.Sorted(maps.Keys(e.Fields)) {
		id := f
		for _, m := range ids {
			if v, ok := m[f]; ok {
				id = v
			}
		}
		msg := formWords(f, e.Fields[f])
		p.Errors[id] = msg
		p.ErrorList = append(p.ErrorList, fieldProblem{id, summaryLine(labelOf(f), msg)})
	}
	if len(e.Fields) == 0 {
		p.ErrorList = append(p.ErrorList, fieldProblem{"", e.Message})
	}
}

// formWords says an API field message in a form's terms: the API's amount
// can be sent two ways, the form's one.
func formWords(field, msg string) string {
	if field == "amount" && strings.Contains(msg, "amountMinor") {
		return "is required: enter the amount in the currency's units, like 250.00"
	}
	return msg
}

// summaryLine leads a field's message with its label, unless the message
// names the field already ("vault vlt_… has insufficient…", "invalid
// GSTIN…"), which then stands alone, capitalised.
func summaryLine(label, msg string) string {
	if strings.Contains(strings.ToLower(msg), strings.ToLower(label)) {
		r, n := utf8.DecodeRuneInString(msg)
		return string(unicode.ToUpper(r)) + msg[n:]
	}
	return label + " " + msg
}

// headers are set on every console response: nothing from elsewhere may
// load, no script runs at all, the page cannot be framed, and no page
// (they hold the user's figures) is cached or sent in a Referer.
func headers(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cache-Control", "no-store")
}

// render executes the page into a buffer first, so a template error is a
// clean error page rather than half a page.
func (c *Console) render(w http.ResponseWriter, r *http.Request, status int, name string, p page) {
	ctx := r.Context()
	if u, ok := c.currentUser(ctx); ok {
		p.User = &u
		p.Unread = c.unread(r, u)
		if p.Flash == "" {
			p.Flash = c.sessions.PopString(ctx, keyFlash)
		}
	}
	if p.User != nil || p.signInForm {
		p.CSRF = c.csrfToken(ctx)
	}
	p.RequestID = c.cfg.RequestID(r)
	t := c.views.pages[name]
	var buf bytes.Buffer
	if t == nil {
		c.log.ErrorContext(ctx, "console: no template", slog.String("page", name))
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	if err := t.ExecuteTemplate(&buf, "layout", p); err != nil {
		c.log.ErrorContext(ctx, "console template", slog.String("page", name), slog.String("requestId", p.RequestID), slog.String("error", err.Error()))
		http.Error(w, "Internal error. Reference "+p.RequestID, http.StatusInternalServerError)
		return
	}
	headers(w)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// unread is the header's count of unread notices; a failure to count
// shows none rather than no page.
func (c *Console) unread(r *http.Request, u user) string {
	n, err := c.db.UnreadNotices(r.Context(), u.ID, unreadCap)
	switch {
	case err != nil:
		c.log.ErrorContext(r.Context(), "console: unread notices", slog.String("error", err.Error()))
		return ""
	case n == 0:
		return ""
	case n >= unreadCap:
		return strconv.Itoa(unreadCap-1) + "+"
	}
	return strconv.Itoa(n)
}

// problem shows a page that says what went wrong and what to do.
func (c *Console) problem(w http.ResponseWriter, r *http.Request, status int, title, msg string) {
	c.render(w, r, status, "problem", page{Title: title, Message: msg})
}

func (c *Console) internalError(w http.ResponseWriter, r *http.Request, err error) {
	c.log.ErrorContext(r.Context(), "console", slog.String("requestId", c.cfg.RequestID(r)), slog.String("error", err.Error()))
	c.problem(w, r, http.StatusInternalServerError, "Something went wrong",
		"The page could not be shown because of a problem on the server. Nothing you sent was lost; try again in a moment.")
}

// fail shows err: a known condition as its own page with its message, and
// anything else as an internal error.
func (c *Console) fail(w http.ResponseWriter, r *http.Request, err error) {
	if reused := (*formReused)(nil); errors.As(err, &reused) {
		c.problem(w, r, http.StatusConflict, "Already sent",
			"This form was already sent with other details. What it did the first time stands, and nothing was sent now.")
		return
	}
	var e *apperr.Error
	if !errors.As(err, &e) {
		c.internalError(w, r, err)
		return
	}
	switch e.Code {
	case apperr.ErrNotFound, apperr.ErrPaymentNotFound, apperr.ErrWalletNotFound, apperr.ErrFIRANotFound, apperr.ErrProfileNotFound:
		c.problem(w, r, http.StatusNotFound, "Not found", "There is nothing here for this account. "+e.Message+".")
	case apperr.ErrInvalidState, apperr.ErrConflict:
		c.problem(w, r, http.StatusConflict, "Not possible now", e.Message+".")
	case apperr.ErrRailUnavailable:
		c.problem(w, r, http.StatusServiceUnavailable, "Network unreachable", e.Message+". Try again in a minute.")
	default:
		c.problem(w, r, http.StatusBadRequest, "Not done", e.Message+".")
	}
}

func (c *Console) handleNotFound(w http.ResponseWriter, r *http.Request) {
	c.problem(w, r, http.StatusNotFound, "Page not found", "There is no console page at this address.")
}

// handleCSS serves the stylesheet; a request with the current version may
// cache it for good.
func (c *Console) handleCSS(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/css; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if r.URL.Query().Get("v") == c.views.cssVersion {
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		w.Header().Set("Cache-Control", "no-cache")
	}
	w.Write(c.views.css)
}
