package bench

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"

	"github.com/payoutd/payoutd/store"
)

// consolePaths are the console's pages, timed like the API's read paths
// (docs/performance.md, "Console"); :latest is the user's newest payout
// and :oldest its oldest, whose audit rows are the furthest back in the
// user's log.
var consolePaths = []string{
	"/console/",
	"/console/payouts",
	"/console/payouts?status=COMPLETED",
	"/console/payouts/:latest",
	"/console/payouts/:oldest",
	"/console/payouts/new?key=3f0c8a52-8a51-4c3e-9a0e-2f1d7c9b6a01",
	"/console/firas",
	"/console/tax",
	"/console/settings",
}

var csrfRE = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// consoleClient signs a cookie-keeping client into the console as the user,
// through a one-time link as a browser would.
func consoleClient(ctx context.Context, base http.RoundTripper, t *Target, u store.User) (*http.Client, error) {
	var token string
	err := t.DB.WithTx(ctx, func(tx *store.Tx) (err error) {
		token, _, err = tx.Keys().CreateConsoleLink(u)
		return err
	}, store.WithActor("bench", ""))
	if err != nil {
		return nil, err
	}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Transport: base, Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Get(t.URL + "/console/signin?token=" + token)
	if err != nil {
		return nil, err
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	m := csrfRE.FindSubmatch(page)
	if m == nil {
		return nil, fmt.Errorf("console sign-in page without a CSRF token (%d)", res.StatusCode)
	}
	res, err = c.PostForm(t.URL+"/console/signin", url.Values{"token": {token}, "csrf": {string(m[1])}})
	if err != nil {
		return nil, err
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		return nil, fmt.Errorf("console sign-in: %d", res.StatusCode)
	}
	return c, nil
}

// measureConsole times each console page for the user at this size.
func measureConsole(ctx context.Context, c *http.Client, t *Target, userID string, size, samples int, history bool) ([]ReadResult, error) {
	latest, _, err := t.DB.Payments().ListPayments(ctx, store.PaymentFilter{UserID: userID, Page: 1, Limit: 1})
	if err != nil || len(latest) == 0 {
		return nil, fmt.Errorf("console pages: no payout to show (%v)", err)
	}
	oldest, err := t.DB.Payments().FindPaymentByTxnID(ctx, userID, store.SeedTxnID(size-1))
	if err != nil {
		return nil, fmt.Errorf("console pages: the oldest payout: %w", err)
	}
	var out []ReadResult
	for _, p := range consolePaths {
		if strings.HasSuffix(p, ":oldest") && !history {
			continue // its payouts have no audit rows to read
		}
		path := strings.NewReplacer(":latest", latest[0].ID, ":oldest", oldest.ID).Replace(p)
		r, err := timeGET(ctx, c, t.URL+path, "", samples)
		if err != nil {
			return nil, err
		}
		r.Path, r.Payments = p, size
		if strings.Contains(p, "status=") {
			r.Path = "/console/payouts?status"
		}
		if strings.HasPrefix(p, "/console/payouts/new") {
			r.Path = "/console/payouts/new" // its form's key is no part of the page's name
		}
		if strings.HasSuffix(p, ":latest") {
			r.Path = "/console/payouts/:id"
		}
		if strings.HasSuffix(p, ":oldest") {
			r.Path = "/console/payouts/:id (oldest)"
		}
		out = append(out, r)
	}
	return out, nil
}
