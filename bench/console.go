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
// user's log; :fira, :client, :vault and :webhook are one of each the
// user has (consoleFixtures). The search names no seeded payout's client,
// so it reads every one of the user's payouts to find none.
var consolePaths = []string{
	"/console/",
	"/console/payouts",
	"/console/payouts?status=COMPLETED",
	"/console/payouts?q=northwind",
	"/console/payouts/:latest",
	"/console/payouts/:oldest",
	"/console/payouts/new?key=3f0c8a52-8a51-4c3e-9a0e-2f1d7c9b6a01",
	"/console/clients",
	"/console/clients/:client",
	"/console/vaults/:vault",
	"/console/invoices",
	"/console/firas",
	"/console/firas/:fira",
	"/console/tax",
	"/console/notices",
	"/console/settings",
	"/console/settings/webhooks/:webhook",
}

// consoleIDs are the records the console's pages are timed on.
type consoleIDs struct{ client, vault, webhook string }

// consoleFixtures gives the user a client and a webhook endpoint, and
// finds its first vault, for their pages.
func consoleFixtures(ctx context.Context, t *Target, u store.User) (consoleIDs, error) {
	var ids consoleIDs
	err := t.DB.WithTx(ctx, func(tx *store.Tx) error {
		c, err := tx.Invoices().CreateClient(store.Client{UserID: u.ID, Name: "Northwind Traders", Country: "US", PurposeCode: "P0802", Currency: "USD"})
		if err != nil {
			return err
		}
		ep, _, err := tx.Webhooks().CreateWebhookEndpoint(store.WebhookEndpoint{UserID: u.ID, URL: "https://hooks.example.com/payoutd"}, t.Sealer)
		ids.client, ids.webhook = c.ID, ep.ID
		return err
	}, store.WithActor("bench", ""))
	if err != nil {
		return ids, err
	}
	vaults, err := t.DB.Vaults().ListVaults(ctx, u.ID)
	if err != nil || len(vaults) == 0 {
		return ids, fmt.Errorf("console pages: no vault (%v)", err)
	}
	ids.vault = vaults[0].ID
	return ids, nil
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
func measureConsole(ctx context.Context, c *http.Client, t *Target, userID string, ids consoleIDs, size, samples int, history bool) ([]ReadResult, error) {
	latest, _, err := t.DB.Payments().ListPayments(ctx, store.PaymentFilter{UserID: userID, Page: 1, Limit: 1})
	if err != nil || len(latest) == 0 {
		return nil, fmt.Errorf("console pages: no payout to show (%v)", err)
	}
	oldest, err := t.DB.Payments().FindPaymentByTxnID(ctx, userID, store.SeedTxnID(size-1))
	if err != nil {
		return nil, fmt.Errorf("console pages: the oldest payout: %w", err)
	}
	firas, _, err := t.DB.Tax().ListFIRAs(ctx, store.FIRAFilter{UserID: userID, Page: 1, Limit: 1})
	if err != nil {
		return nil, err
	}
	fira := ""
	if len(firas) > 0 {
		fira = firas[0].ID
	}
	var out []ReadResult
	for _, p := range consolePaths {
		if strings.HasSuffix(p, ":oldest") && !history || strings.HasSuffix(p, ":fira") && fira == "" {
			continue // its payouts have no audit rows to read, or no FIRA
		}
		path := strings.NewReplacer(":latest", latest[0].ID, ":oldest", oldest.ID, ":fira", fira,
			":client", ids.client, ":vault", ids.vault, ":webhook", ids.webhook).Replace(p)
		r, err := timeGET(ctx, c, t.URL+path, "", samples)
		if err != nil {
			return nil, err
		}
		r.Path, r.Payments = p, size
		if strings.Contains(p, "status=") {
			r.Path = "/console/payouts?status"
		}
		if strings.Contains(p, "q=") {
			r.Path = "/console/payouts?q (search)"
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
