package console

import (
	"cmp"
	"context"
	"fmt"
	"html"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/rates"
	"github.com/payoutd/payoutd/store"
)

// seedPayouts gives u 2,000 payouts to page through: 800 COMPLETED USD
// ones a second apart (store.SeedSettled), then 1,200 INITIATED ones in
// USD, EUR and GBP over the four days before, 300 a day, made in the same
// millisecond runs so the list's order must break ties by id. It returns
// every payout, newest first, as the store lists them.
func (h *harness) seedPayouts(u store.User) []store.Payment {
	h.t.Helper()
	ctx := context.Background()
	if err := h.db.Bench().SeedSettled(ctx, store.Seed{UserID: u.ID, From: 0, To: 800, Destination: testAddress}); err != nil {
		h.t.Fatal(err)
	}
	currencies := []string{"USD", "EUR", "GBP"}
	h.advance(-4 * 24 * time.Hour) // the clock is back where it was after the fourth day
	for day := range 4 {
		err := h.db.WithTx(ctx, func(tx *store.Tx) error {
			for i := range 300 {
				n := day*300 + i
				p := store.Payment{UserID: u.ID, TxnID: fmt.Sprintf("page-%d", n), Amount: int64(1000 + n), Currency: currencies[n%3],
					DestinationAddress: testAddress, InvoiceRef: fmt.Sprintf("INV-%d", n%7), CounterpartyName: fmt.Sprintf("Client %d", n%11)}
				if _, err := payout.Initiate(tx, rates.Default(), p); err != nil {
					return err
				}
			}
			return nil
		}, store.WithActor("test", ""))
		if err != nil {
			h.t.Fatal(err)
		}
		h.advance(24 * time.Hour)
	}
	all, total, err := h.db.Payments().ListPayments(ctx, store.PaymentFilter{UserID: u.ID, Page: 1, Limit: 5000})
	if err != nil || total != 2000 || len(all) != 2000 {
		h.t.Fatalf("seeded %d (%d listed): %v", total, len(all), err)
	}
	return all
}

var (
	payoutRow  = regexp.MustCompile(`<a href="/console/payouts/(pay_\w+)" class="mono">`)
	nextLink   = regexp.MustCompile(`<a href="([^"]+)"[^>]*>Next page</a>`)
	prevLink   = regexp.MustCompile(`<a href="([^"]+)"[^>]*>Previous page</a>`)
	totalShown = regexp.MustCompile(`(\d+) payouts? match`)
)

// walk follows one link (Next or Previous page) from a list's first page
// to its end and returns every payout id it showed, in the order shown,
// the total the first page gave and the address of the last page.
func (b *browser) walk(first string, link *regexp.Regexp) (ids []string, total int, last string) {
	b.t.Helper()
	total = -1
	for next, n := first, 0; next != ""; n++ {
		if n > 200 {
			b.t.Fatalf("%s: more than 200 pages", first)
		}
		if b.get(next); b.status != 200 {
			b.t.Fatalf("%s: %d\n%s", next, b.status, b.page)
		}
		last = next
		if total < 0 {
			m := totalShown.FindStringSubmatch(b.page)
			if m == nil {
				b.t.Fatalf("%s: no count shown", next)
			}
			total, _ = strconv.Atoi(m[1])
		}
		var page []string
		for _, m := range payoutRow.FindAllStringSubmatch(b.page, -1) {
			page = append(page, m[1])
		}
		if link == prevLink {
			slices.Reverse(page)
		}
		ids = append(ids, page...)
		next = ""
		if m := link.FindStringSubmatch(b.page); m != nil {
			next = html.UnescapeString(m[1])
		}
	}
	return ids, total, last
}

// TestPayoutsPagingWalksEveryPage: Next page walks all 2,000 payouts, and
// every combination of the list's filters, searches and orders, from the
// first page to the last, and Previous page walks back: each matching
// payout exactly once, in the list's order, and as many as the count says.
func TestPayoutsPagingWalksEveryPage(t *testing.T) {
	h := newHarness(t, harnessOpts{})
	u, _ := h.newUser("asha@example.com", false)
	all := h.seedPayouts(u)
	b := h.signIn(u)

	days := []string{}
	for _, p := range all {
		if d := india.DateOf(p.CreatedAt); !slices.Contains(days, d) {
			days = append(days, d)
		}
	}
	slices.Sort(days)
	byAmount := slices.Clone(all)
	slices.SortStableFunc(byAmount, func(a, b store.Payment) int {
		if a.Amount != b.Amount {
			return cmp.Compare(b.Amount, a.Amount)
		}
		return strings.Compare(b.ID, a.ID)
	})
	ranges := [][2]string{{"", ""}, {days[1], days[2]}, {days[len(days)-1], ""}}
	walks := 0
	for _, status := range []string{"", store.StatusInitiated} {
		for _, currency := range []string{"", "EUR"} {
			for _, search := range []string{"", "INV-3", "client 1"} {
				for _, r := range ranges {
					for _, sort := range []string{"", store.SortAmount} {
						q := url.Values{}
						for k, v := range map[string]string{"status": status, "currency": currency, "q": search, "from": r[0], "to": r[1], "sort": sort} {
							if v != "" {
								q.Set(k, v)
							}
						}
						list := all
						if sort == store.SortAmount {
							list = byAmount
						}
						var want []string
						for _, p := range list {
							day := india.DateOf(p.CreatedAt)
							found := strings.Contains(strings.ToLower(p.CounterpartyName+"\x00"+p.InvoiceRef), strings.ToLower(search))
							if (status == "" || p.Status == status) && (currency == "" || p.Currency == currency) && found &&
								(r[0] == "" || day >= r[0]) && (r[1] == "" || day <= r[1]) {
								want = append(want, p.ID)
							}
						}
						got, total, last := b.walk(listURL("payouts", q), nextLink)
						walks++
						if total != len(want) {
							t.Errorf("%v: the page says %d match, %d do", q, total, len(want))
						}
						if !slices.Equal(got, want) {
							t.Errorf("%v: walked %d payouts (%d distinct), want %d in order", q, len(got), len(distinct(got)), len(want))
						}
						if len(want) > pageSize && walks%3 == 0 {
							back, _, _ := b.walk(last, prevLink)
							slices.Reverse(back)
							if !slices.Equal(back, want) {
								t.Errorf("%v: walked back %d payouts (%d distinct), want %d in order", q, len(back), len(distinct(back)), len(want))
							}
						}
					}
				}
			}
		}
	}
}

func distinct(ids []string) map[string]bool {
	m := map[string]bool{}
	for _, id := range ids {
		m[id] = true
	}
	return m
}
