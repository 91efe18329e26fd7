package console

import (
	"context"
	"fmt"
	"html"
	"net/url"
	"regexp"
	"slices"
	"strconv"
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
	if err := h.db.SeedSettled(ctx, store.Seed{UserID: u.ID, From: 0, To: 800, Destination: testAddress}); err != nil {
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
	all, total, err := h.db.ListPayments(ctx, store.PaymentFilter{UserID: u.ID, Page: 1, Limit: 5000})
	if err != nil || total != 2000 || len(all) != 2000 {
		h.t.Fatalf("seeded %d (%d listed): %v", total, len(all), err)
	}
	return all
}

var (
	payoutRow  = regexp.MustCompile(`<a href="/console/payouts/(pay_\w+)" class="mono">`)
	nextLink   = regexp.MustCompile(`<a href="([^"]+)"[^>]*>Next page</a>`)
	totalShown = regexp.MustCompile(`(\d+) payouts? match`)
)

// walk follows Next page from a list's first page to its last and returns
// every payout id it showed, in order, and the total the first page gave.
func (b *browser) walk(first string) ([]string, int) {
	b.t.Helper()
	var ids []string
	total := -1
	for next, n := first, 0; next != ""; n++ {
		if n > 200 {
			b.t.Fatalf("%s: more than 200 pages", first)
		}
		if b.get(next); b.status != 200 {
			b.t.Fatalf("%s: %d\n%s", next, b.status, b.page)
		}
		if total < 0 {
			m := totalShown.FindStringSubmatch(b.page)
			if m == nil {
				b.t.Fatalf("%s: no count shown", next)
			}
			total, _ = strconv.Atoi(m[1])
		}
		for _, m := range payoutRow.FindAllStringSubmatch(b.page, -1) {
			ids = append(ids, m[1])
		}
		next = ""
		if m := nextLink.FindStringSubmatch(b.page); m != nil {
			next = html.UnescapeString(m[1])
		}
	}
	return ids, total
}

// TestPayoutsPagingWalksEveryPage: Next page walks all 2,000 payouts, and
// every combination of the list's filters, from the first page to the
// last: each matching payout exactly once, in the list's order, and as
// many as the count says.
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
	ranges := [][2]string{{"", ""}, {days[1], days[2]}, {days[len(days)-1], ""}}
	for _, status := range []string{"", store.StatusInitiated, store.StatusCompleted} {
		for _, currency := range []string{"", "USD", "EUR"} {
			for _, invoice := range []string{"", "INV-3"} {
				for _, r := range ranges {
					q := url.Values{}
					for k, v := range map[string]string{"status": status, "currency": currency, "invoiceRef": invoice, "from": r[0], "to": r[1]} {
						if v != "" {
							q.Set(k, v)
						}
					}
					var want []string
					for _, p := range all {
						day := india.DateOf(p.CreatedAt)
						if (status == "" || p.Status == status) && (currency == "" || p.Currency == currency) &&
							(invoice == "" || p.InvoiceRef == invoice) && (r[0] == "" || day >= r[0]) && (r[1] == "" || day <= r[1]) {
							want = append(want, p.ID)
						}
					}
					got, total := b.walk(listURL("payouts", q))
					if total != len(want) {
						t.Errorf("%v: the page says %d match, %d do", q, total, len(want))
					}
					if !slices.Equal(got, want) {
						t.Errorf("%v: walked %d payouts (%d distinct), want %d in order", q, len(got), len(distinct(got)), len(want))
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
