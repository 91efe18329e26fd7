// Package console is the freelancer's console under /console/:
// server-rendered html/template pages that work without JavaScript, a
// browser session (scs, stored in SQLite) entered through a one-time link,
// and a CSRF token on every form. Every write goes through the operations
// the API uses (payout, store) with the same input rules (input), audited
// with the console session as actor.
package console

import (
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/alexedwards/scs/v2"

	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/store"
)

// Prefix is where the console is mounted.
const Prefix = "/console/"

// Session lifetimes: idle and absolute.
const (
	IdleTimeout = 30 * time.Minute
	Lifetime    = 12 * time.Hour
)

// Config is what the console needs.
type Config struct {
	DB      *store.DB
	BaseURL string
	Sealer  *store.Sealer
	// Rates give the indicative INR value of a payout before it settles.
	Rates rates.Table
	// Live is the live rail's confirm check; nil when none is configured.
	Live payout.LiveCheck
	Log  *slog.Logger
	// RequestID is the request's id as the HTTP layer assigned it, for
	// audit rows and error pages.
	RequestID func(*http.Request) string
	// SandboxPrivateWebhooks lets sandbox webhooks reach private and
	// link-local addresses (jobs.RuleFor).
	SandboxPrivateWebhooks bool
	// Mail: notices are also e-mailed (serve -smtp-url), which Settings
	// says beside the choice of kinds.
	Mail bool
}

// Console is the console's HTTP handler.
type Console struct {
	cfg      Config
	db       *store.DB
	log      *slog.Logger
	sessions *scs.SessionManager
	views    *views
	mux      *http.ServeMux // the pages, inside the browser session
	handler  http.Handler
}

// New builds the console.
func New(cfg Config) (*Console, error) {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.RequestID == nil {
		cfg.RequestID = func(*http.Request) string { return "" }
	}
	v, err := loadViews()
	if err != nil {
		return nil, err
	}
	c := &Console{cfg: cfg, db: cfg.DB, log: cfg.Log, views: v, mux: http.NewServeMux()}
	c.sessions = c.newSessions()
	c.routes()
	// The stylesheet is public and cached for good: it is served outside
	// the session, so its response neither renews one nor sets a cookie.
	top := http.NewServeMux()
	top.HandleFunc("GET "+cssPath, c.handleCSS)
	top.Handle(Prefix, c.sessions.LoadAndSave(c.mux))
	c.handler = top
	return c, nil
}

// SignInURL is the console's sign-in link for a token of
// store.CreateConsoleLink.
func SignInURL(baseURL, token string) string {
	return strings.TrimRight(baseURL, "/") + Prefix + "signin?token=" + token
}

// ServeHTTP serves the console; every page runs inside the browser session
// (loaded before, saved after).
func (c *Console) ServeHTTP(w http.ResponseWriter, r *http.Request) { c.handler.ServeHTTP(w, r) }

// cssPath is the stylesheet's address.
const cssPath = Prefix + "assets/console.css"

// routes lists every console route on one screen. Pages that show a user's
// data go through c.page (signed in) and forms through c.form (signed in,
// CSRF token checked).
func (c *Console) routes() {
	m := c.mux
	m.HandleFunc("GET /console/signin", c.handleSignInPage)
	m.HandleFunc("POST /console/signin", c.handleSignIn)
	m.Handle("POST /console/signout", c.form(c.handleSignOut))
	m.Handle("GET /console/{$}", c.page(c.handleHome))

	m.Handle("GET /console/payouts", c.page(c.handlePayouts))
	m.Handle("GET /console/payouts.csv", c.page(c.handlePayoutsCSV))
	m.Handle("GET /console/payouts/new", c.page(c.handleNewPayout))
	m.Handle("POST /console/payouts/new", c.form(c.handleInitiate))
	m.Handle("GET /console/payouts/{id}", c.page(c.handlePayout))
	m.Handle("GET /console/payouts/{id}/confirm", c.page(c.handleConfirmPage))
	m.Handle("POST /console/payouts/{id}/confirm", c.form(c.handleConfirm))
	m.Handle("POST /console/payouts/{id}/retry", c.form(c.handleRetry))
	m.Handle("POST /console/payouts/{id}/cancel", c.form(c.handleCancel))
	m.Handle("POST /console/payouts/{id}/review", c.form(c.handleReview))

	m.Handle("GET /console/clients", c.page(c.handleClients))
	m.Handle("POST /console/clients", c.form(c.handleClientCreate))
	m.Handle("GET /console/clients/{id}", c.page(c.handleClient))
	m.Handle("POST /console/clients/{id}", c.form(c.handleClientUpdate))

	m.Handle("GET /console/firas", c.page(c.handleFIRAs))
	m.Handle("GET /console/firas.csv", c.page(c.handleFIRAsCSV))
	m.Handle("GET /console/firas.zip", c.page(c.handleFIRAsZip))
	m.Handle("GET /console/firas/{id}", c.page(c.handleFIRA))
	m.Handle("GET /console/firas/{id}/pdf", c.page(c.handleFIRAPDF))

	m.Handle("GET /console/tax", c.page(c.handleTax))
	m.Handle("POST /console/tax/payments", c.form(c.handleTaxPayment))
	m.Handle("POST /console/tax/payments/{id}/reverse", c.form(c.handleTaxReverse))
	m.Handle("GET /console/tax/gstr3b", c.page(c.handleGSTR3B))
	m.Handle("GET /console/tax/payments.csv", c.page(c.handleTaxPaymentsCSV))
	m.Handle("GET /console/tax/gstr1", c.page(c.handleGSTR1))
	m.Handle("GET /console/tax/itr4", c.page(c.handleITR4))

	m.Handle("GET /console/settings", c.page(c.handleSettings))
	m.Handle("POST /console/settings/profile", c.form(c.handleProfile))
	m.Handle("POST /console/settings/kyc", c.form(c.handleKYCStart))
	m.Handle("POST /console/settings/webhooks", c.form(c.handleWebhookCreate))
	m.Handle("GET /console/settings/webhooks/{id}", c.page(c.handleWebhook))
	m.Handle("POST /console/settings/webhooks/{id}/rotate", c.form(c.handleWebhookRotate))
	m.Handle("POST /console/settings/webhooks/{id}/delete", c.form(c.handleWebhookDelete))
	m.Handle("POST /console/settings/keys", c.form(c.handleKeyCreate))
	m.Handle("POST /console/settings/keys/{id}/rotate", c.form(c.handleKeyRotate))
	m.Handle("POST /console/settings/keys/{id}/revoke", c.form(c.handleKeyRevoke))

	m.Handle("GET /console/notices", c.page(c.handleNotices))
	m.Handle("POST /console/notices/read", c.form(c.handleNoticesRead))
	m.Handle("POST /console/settings/notices", c.form(c.handleNoticeMail))

	m.HandleFunc("/console/", c.handleNotFound)
}
