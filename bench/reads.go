package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/payoutd/payoutd/store"
)

// ReadResult is one read path's latency at one database size.
type ReadResult struct {
	Path     string  `json:"path"`
	Payments int     `json:"payments"`
	P50MS    float64 `json:"p50_ms"`
	P99MS    float64 `json:"p99_ms"`
}

// measureReads grows one user's history to each size in turn and times the
// read paths a dashboard polls.
func measureReads(ctx context.Context, c *http.Client, t *Target, sizes []int, samples int, say func(string, ...any)) ([]ReadResult, error) {
	var key, userID string
	var user store.User
	err := t.DB.WithTx(ctx, func(tx *store.Tx) error {
		u, _, err := tx.People().EnsureUser("bench-reader@payoutd.local", false, "Bench Reader", t.Sealer)
		if err != nil {
			return err
		}
		k, secret, err := tx.Keys().CreateAPIKey(u, "bench-reader", store.AllScopes)
		if err != nil {
			return err
		}
		userID, key, user = u.ID, secret, u
		return tx.Keys().SetRateExempt(k.ID)
	}, store.WithActor("bench", ""))
	if err != nil {
		return nil, err
	}
	browser, err := consoleClient(ctx, c.Transport, t, user)
	if err != nil {
		return nil, err
	}
	ids, err := consoleFixtures(ctx, t, user)
	if err != nil {
		return nil, err
	}
	var out []ReadResult
	have := 0
	for _, size := range sizes {
		t0 := time.Now()
		if err := t.DB.Bench().SeedSettled(ctx, store.Seed{UserID: userID, From: have, To: size, Destination: address, History: size <= historyUpTo}); err != nil {
			return nil, err
		}
		say("seeded %d payments in %s", size, time.Since(t0).Round(time.Millisecond))
		have = size
		acct, err := t.DB.Ledger().UserLedgerAccount(ctx, userID, store.AccountSettlement, "INR")
		if err != nil {
			return nil, err
		}
		paths := []string{
			"/api/v1/payments?limit=20",
			"/api/v1/payments?status=COMPLETED&limit=20",
			"/api/v1/ledger/accounts/" + acct.ID + "/entries?limit=25",
			"/api/v1/ledger/accounts/" + acct.ID + "/balance",
			"/api/v1/tax/liability",
			"/api/v1/compliance/gst/summary",
		}
		for _, p := range paths {
			r, err := timeGET(ctx, c, t.URL+p, key, samples)
			if errors.Is(err, errNoRoute) {
				continue // a server without this endpoint: nothing to time
			}
			if err != nil {
				return nil, err
			}
			r.Path, r.Payments = strings.Split(p, "?")[0], size
			if strings.Contains(p, "status=") {
				r.Path += "?status"
			}
			if strings.HasPrefix(r.Path, "/api/v1/ledger/accounts/") {
				r.Path = "/api/v1/ledger/accounts/:id/" + r.Path[strings.LastIndexByte(r.Path, '/')+1:]
			}
			out = append(out, r)
		}
		pages, err := measureConsole(ctx, browser, t, userID, ids, size, samples, size <= historyUpTo)
		if err != nil {
			return nil, err
		}
		out = append(out, pages...)
	}
	return out, nil
}

var errNoRoute = errors.New("no such route")

// historyUpTo is the largest size whose seeded payouts carry their audit
// rows, events and FIRAs: the oldest payout's page reads its own audit
// rows among the user's whole log. Beyond it seeding history would take
// minutes per size, so larger sizes seed payouts only and do not time
// the oldest payout's page.
const historyUpTo = 100_000

func timeGET(ctx context.Context, c *http.Client, url, key string, n int) (ReadResult, error) {
	lat := make([]time.Duration, 0, n)
	for i := 0; i < n; i++ {
		req, _ := http.NewRequestWithContext(ctx, "GET", url, nil)
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		t0 := time.Now()
		res, err := c.Do(req)
		if err != nil {
			return ReadResult{}, err
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode == http.StatusNotFound && i == 0 {
			return ReadResult{}, errNoRoute
		}
		if res.StatusCode != 200 {
			return ReadResult{}, fmt.Errorf("GET %s: %d", url, res.StatusCode)
		}
		lat = append(lat, time.Since(t0))
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	return ReadResult{P50MS: pct(lat, 0.5), P99MS: pct(lat, 0.99)}, nil
}
