package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/internal/wait"
)

// listPage is the shared shape of a list reply; entries is the ledger's
// name for items.
type listPage struct {
	Items      []map[string]any `json:"items"`
	Entries    []map[string]any `json:"entries"`
	Total      int              `json:"total"`
	Page       int              `json:"page"`
	Limit      int              `json:"limit"`
	HasMore    bool             `json:"hasMore"`
	NextCursor string           `json:"nextCursor"`
}

func (e *env) listPage(path string) listPage {
	e.t.Helper()
	r := e.req("GET", path, nil)
	if r.Status != http.StatusOK {
		e.t.Fatalf("GET %s: %d %s", path, r.Status, r.Body)
	}
	var p listPage
	if err := json.Unmarshal(r.Body, &p); err != nil {
		e.t.Fatal(err)
	}
	if p.Entries != nil {
		p.Items = p.Entries
	}
	return p
}

// idsOf are the items' ids (an audit entry's is its seq).
func idsOf(items []map[string]any) []string {
	out := make([]string, len(items))
	for i, it := range items {
		if id, ok := it["id"].(string); ok {
			out[i] = id
		} else {
			out[i] = fmt.Sprint(it["seq"])
		}
	}
	return out
}

// walk pages through a list by cursor, limit items at a time.
func (e *env) walk(path string, limit int) []string {
	e.t.Helper()
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	var ids []string
	cursor := ""
	for n := 0; ; n++ {
		q := fmt.Sprintf("%s%slimit=%d", path, sep, limit)
		if cursor != "" {
			q += "&after=" + cursor
		}
		p := e.listPage(q)
		ids = append(ids, idsOf(p.Items)...)
		if !p.HasMore {
			if p.NextCursor != "" {
				e.t.Fatalf("%s: nextCursor %q on the last page", q, p.NextCursor)
			}
			return ids
		}
		if len(p.Items) != limit || p.NextCursor != ids[len(ids)-1] {
			e.t.Fatalf("%s: hasMore with %d items and nextCursor %q (last item %q)", q, len(p.Items), p.NextCursor, ids[len(ids)-1])
		}
		cursor = p.NextCursor
		if n > 1000 {
			e.t.Fatalf("%s: the walk does not end", path)
		}
	}
}

// TestCursorEveryList: on each list, walking by cursor two items at a time
// yields exactly the list as one page shows it, in the same order, and page
// numbers keep working next to the cursor.
func TestCursorEveryList(t *testing.T) {
	t.Parallel()
	w := newWebhookEnv(t, whConfig{schedule: fastSchedule(1, 10*time.Millisecond), timeout: time.Second})
	e := w.env
	e.approveKYC(e.UserID)
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) }))
	t.Cleanup(sink.Close)
	hook, _ := w.createWebhook(sink.URL)
	var ids []string
	for _, amount := range []string{"10.00", "11.00", "12.00", "13.00", "14.00"} {
		ids = append(ids, e.pay(amount, map[string]any{"counterpartyCountry": "US", "purposeCode": "P0802"}))
	}
	for _, id := range ids {
		e.waitStatus(id, "COMPLETED", 20*time.Second)
	}
	w.waitDeliveries(hook, 5)
	for i, paidOn := range []string{"2026-03-10", "2026-03-10", "2026-03-12", "2025-12-15", "2026-03-10"} {
		r := e.req("POST", "/api/v1/tax/payments", map[string]any{"fy": "2025-26", "kind": "advance", "amount": "1000.00",
			"paidOn": paidOn, "bsrCode": "0510002", "challanSerial": fmt.Sprintf("3000%d", i)})
		if r.Status != http.StatusCreated {
			t.Fatalf("tax payment: %d %s", r.Status, r.Body)
		}
	}
	// Every event since the hook was made is delivered before any list is
	// read, so no delivery (of a tax payment's event, say) lands in the
	// middle of a walk.
	wait.Until(t, 30*time.Second, "every event delivered", func() bool {
		var events, delivered int
		if err := e.SQL.QueryRow(`SELECT count(*) FROM events WHERE user_id = ?
			AND created_at > (SELECT created_at FROM webhook_endpoints WHERE id = ?)`, e.UserID, hook).Scan(&events); err != nil {
			t.Fatal(err)
		}
		if err := e.SQL.QueryRow("SELECT count(DISTINCT event_id) FROM webhook_deliveries WHERE endpoint_id = ?", hook).Scan(&delivered); err != nil {
			t.Fatal(err)
		}
		return delivered >= events
	})
	account := e.listPage("/api/v1/ledger/accounts").Items
	vaultAccount := ""
	for _, a := range account {
		if a["vaultId"] == e.VaultID {
			vaultAccount = a["id"].(string)
		}
	}
	lists := []string{
		"/api/v1/payments", "/api/v1/payments/payouts", "/api/v1/payments?status=COMPLETED&currency=USD",
		"/api/v1/ledger/accounts/" + vaultAccount + "/entries", "/api/v1/compliance/fira", "/api/v1/compliance/audit",
		"/api/v1/events", "/api/v1/events?type=payout.completed", "/api/v1/webhooks/" + hook + "/deliveries",
		"/api/v1/tax/payments",
	}
	for _, path := range lists {
		name := strings.NewReplacer(vaultAccount, "{accountId}", hook, "{id}").Replace(strings.TrimPrefix(path, "/api/v1/"))
		t.Run(name, func(t *testing.T) {
			is := is.New(t)
			sep := "?"
			if strings.Contains(path, "?") {
				sep = "&"
			}
			all := e.listPage(path + sep + "limit=100")
			is.True(len(all.Items) >= 4) // enough to page
			is.True(!all.HasMore)
			is.Equal(all.Total, len(all.Items))
			is.Equal(e.walk(path, 2), idsOf(all.Items))
			// page=2 is the same window as the offset it always was.
			p2 := e.listPage(path + sep + "limit=2&page=2")
			is.Equal(idsOf(p2.Items), idsOf(all.Items)[2:4])
			is.Equal(p2.HasMore, len(all.Items) > 4)
			is.Equal(p2.Total, all.Total)
			// An id that is not an item of this list is 400 naming after.
			r := e.req("GET", path+sep+"after="+map[bool]string{true: "999999999", false: "pay_0000000000"}[strings.Contains(path, "audit")], nil)
			is.Equal(r.Status, http.StatusBadRequest)
			is.True(r.field(t, "after") != "")
		})
	}
	// Another user's item is not a cursor into this user's list.
	other, _, _ := e.newUser("other-cursor@example.com", false, []string{"payments:read"})
	r := e.reqAs(other, "GET", "/api/v1/payments?after="+ids[0], nil)
	is.New(t).Equal(r.Status, http.StatusBadRequest)
}

// TestCursorUnderConcurrentInserts pages through the payouts by cursor while
// more are initiated: every payout that existed when the walk began is seen
// exactly once. Offset pages over the same inserts repeat items, which is
// why the cursor exists.
func TestCursorUnderConcurrentInserts(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	limits := map[string]int{}
	for _, r := range registeredRoutes(t) {
		limits[r.LimitName] = 1 << 20
	}
	e := newEnv(t, func(o *envOpts) { o.noRiver, o.limits = true, limits })
	var before []string
	for i := 0; i < 40; i++ {
		before = append(before, e.initiate(fmt.Sprintf("%d.00", i+1), nil))
	}
	slices.Reverse(before) // the list is newest first

	// Offset paging: a payout created between two pages shifts page 2.
	p1 := idsOf(e.listPage("/api/v1/payments/payouts?limit=5&page=1").Items)
	e.initiate("99.00", nil)
	p2 := idsOf(e.listPage("/api/v1/payments/payouts?limit=5&page=2").Items)
	is.Equal(p2[0], p1[4]) // the drift the cursor avoids

	var wg sync.WaitGroup
	stop := make(chan struct{})
	inserted := make(chan struct{}, 1024)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			body := map[string]any{"amount": json.Number(fmt.Sprintf("%d.00", 200+i)), "currency": "USD", "destinationAddress": testAddress}
			if r := e.req("POST", "/api/v1/payments/initiate", body); r.Status != http.StatusCreated {
				t.Errorf("concurrent initiate: %d %s", r.Status, r.Body)
				close(inserted)
				return
			}
			inserted <- struct{}{}
		}
	}()
	// The walk starts from the newest payout it sees; everything older,
	// including all of before, must come exactly once.
	first := e.listPage("/api/v1/payments/payouts?limit=3")
	seen := idsOf(first.Items)
	cursor := first.NextCursor
	pages := 1
	for cursor != "" {
		<-inserted // at least one payout is created between any two pages
		p := e.listPage("/api/v1/payments/payouts?limit=3&after=" + cursor)
		seen = append(seen, idsOf(p.Items)...)
		cursor = p.NextCursor
		pages++
	}
	close(stop)
	wg.Wait()
	count := map[string]int{}
	for _, id := range seen {
		count[id]++
		if count[id] > 1 {
			t.Errorf("%s seen twice", id)
		}
	}
	for _, id := range before {
		is.Equal(count[id], 1) // every payout that existed before the walk, once
	}
	var total int
	is.NoErr(e.SQL.QueryRow("SELECT count(*) FROM payments WHERE user_id = ?", e.UserID).Scan(&total))
	t.Logf("walked %d pages, %d payouts; %d exist after the concurrent inserts", pages, len(seen), total)
	is.True(total >= len(before)+1+pages-1) // inserts really ran during the walk
}
