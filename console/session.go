package console

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"strings"

	"github.com/alexedwards/scs/v2"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/store"
)

// Session keys.
const (
	keyUser     = "uid"
	keyLive     = "live"
	keyEmail    = "email"
	keySession  = "sid" // the console session's id, the audit actor
	keyCSRF     = "csrf"
	keyFlash    = "flash"
	keySecret   = "secret"   // a new secret, for the one page that shows it
	keySecretOf = "secretOf" // what that secret belongs to
	cookieName  = "payoutd_console"
	maxFormSize = 64 << 10
)

func (c *Console) newSessions() *scs.SessionManager {
	sm := scs.New()
	sm.Store = store.WebSessions{DB: c.db}
	sm.Lifetime = Lifetime
	sm.IdleTimeout = IdleTimeout
	sm.HashTokenInStore = true // a copy of the table does not hand out live sessions
	sm.Cookie.Name = cookieName
	sm.Cookie.Path = "/console"
	sm.Cookie.HttpOnly = true
	// Lax: a link from mail or chat opens the console signed in. A form
	// from another site still arrives without the cookie, and the CSRF
	// token refuses it anyway.
	sm.Cookie.SameSite = http.SameSiteLaxMode
	sm.Cookie.Secure = strings.HasPrefix(c.cfg.BaseURL, "https://")
	sm.ErrorFunc = func(w http.ResponseWriter, r *http.Request, err error) { c.internalError(w, r, err) }
	return sm
}

// user is who a signed-in session acts for.
type user struct {
	ID, Email string
	Livemode  bool
	SessionID string
}

// actor labels the audit rows of the session's writes.
func (u user) actor() string { return "console:" + u.SessionID }

func (c *Console) txOpts(r *http.Request, u user) store.TxOption {
	return store.WithActor(u.actor(), c.cfg.RequestID(r))
}

type userHandler func(w http.ResponseWriter, r *http.Request, u user)

// page serves a signed-in page; without a session it sends the browser to
// the sign-in page.
func (c *Console) page(h userHandler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u, ok := c.currentUser(r.Context())
		if !ok {
			http.Redirect(w, r, Prefix+"signin", http.StatusSeeOther)
			return
		}
		h(w, r, u)
	})
}

// form is page for a POST: the form must carry the session's CSRF token.
func (c *Console) form(h userHandler) http.Handler {
	return c.page(func(w http.ResponseWriter, r *http.Request, u user) {
		if !c.checkCSRF(w, r) {
			return
		}
		h(w, r, u)
	})
}

func (c *Console) currentUser(ctx context.Context) (user, bool) {
	id := c.sessions.GetString(ctx, keyUser)
	if id == "" {
		return user{}, false
	}
	return user{ID: id, Email: c.sessions.GetString(ctx, keyEmail), Livemode: c.sessions.GetBool(ctx, keyLive),
		SessionID: c.sessions.GetString(ctx, keySession)}, true
}

// csrfToken returns the session's token, creating it on first use.
func (c *Console) csrfToken(ctx context.Context) string {
	if t := c.sessions.GetString(ctx, keyCSRF); t != "" {
		return t
	}
	t := randomToken()
	c.sessions.Put(ctx, keyCSRF, t)
	return t
}

// checkCSRF parses the form and compares its token with the session's; a
// missing or wrong token is refused with a 403 page and nothing is done.
func (c *Console) checkCSRF(w http.ResponseWriter, r *http.Request) bool {
	r.Body = http.MaxBytesReader(w, r.Body, maxFormSize)
	err := r.ParseForm()
	want := c.sessions.GetString(r.Context(), keyCSRF)
	if err != nil || want == "" || subtle.ConstantTimeCompare([]byte(r.PostForm.Get("csrf")), []byte(want)) != 1 {
		c.problem(w, r, http.StatusForbidden, "Form expired",
			"This form is out of date or did not come from this console, so nothing was done. Go back, reload the page and try again.")
		return false
	}
	return true
}

func randomToken() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// flash keeps a one-line notice for the next page the session shows.
func (c *Console) flash(r *http.Request, msg string) { c.sessions.Put(r.Context(), keyFlash, msg) }

// signInData is the sign-in page's content.
type signInData struct {
	Token     string
	Problem   string
	SignedOut bool
}

// handleSignInPage shows the sign-in step of a link (a button, so a link
// previewer that fetches the URL does not spend it) or, without one, how
// to get a link. A link that would be refused is refused here already,
// without a form: only a live link starts a browser session before
// sign-in (for the form's CSRF token).
func (c *Console) handleSignInPage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	d := signInData{SignedOut: q.Has("signedout")}
	if token := q.Get("token"); token != "" {
		err := c.db.Keys().CheckConsoleLink(r.Context(), token)
		if apperr.Code(err) == apperr.ErrUnauthorized {
			c.refuseLink(w, r, err)
			return
		}
		if err != nil {
			c.internalError(w, r, err)
			return
		}
		d.Token = token
	}
	c.render(w, r, http.StatusOK, "signin", page{Title: "Sign in", Data: d, signInForm: d.Token != ""})
}

// refuseLink says why a sign-in link was refused.
func (c *Console) refuseLink(w http.ResponseWriter, r *http.Request, err error) {
	c.render(w, r, http.StatusUnauthorized, "signin", page{Title: "Sign-in link refused",
		Data: signInData{Problem: err.(*apperr.Error).Message}})
}

// handleSignIn spends the link and starts the session.
func (c *Console) handleSignIn(w http.ResponseWriter, r *http.Request) {
	if !c.checkCSRF(w, r) {
		return
	}
	token := r.PostForm.Get("token")
	var u store.User
	err := c.db.WithTx(r.Context(), func(tx *store.Tx) (err error) {
		u, err = tx.Keys().UseConsoleLink(token)
		return err
	}, store.WithActor("console:signin", c.cfg.RequestID(r)))
	if apperr.Code(err) == apperr.ErrUnauthorized {
		c.refuseLink(w, r, err)
		return
	}
	if err != nil {
		c.internalError(w, r, err)
		return
	}
	ctx := r.Context()
	// A fresh token on privilege change, so a planted cookie is useless.
	if err := c.sessions.RenewToken(ctx); err != nil {
		c.internalError(w, r, err)
		return
	}
	c.sessions.Put(ctx, keyUser, u.ID)
	c.sessions.Put(ctx, keyEmail, u.Email)
	c.sessions.Put(ctx, keyLive, u.Livemode)
	c.sessions.Put(ctx, keySession, store.NewID("csn"))
	c.sessions.Put(ctx, keyCSRF, randomToken())
	http.Redirect(w, r, Prefix, http.StatusSeeOther)
}

func (c *Console) handleSignOut(w http.ResponseWriter, r *http.Request, u user) {
	if err := c.sessions.Destroy(r.Context()); err != nil {
		c.internalError(w, r, err)
		return
	}
	http.Redirect(w, r, Prefix+"signin?signedout", http.StatusSeeOther)
}
