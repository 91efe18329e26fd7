package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

// searchNames are client names and invoice references that test what a
// search must find: % _ \ and " in the text, ASCII letters in any case,
// letters beyond ASCII that LIKE compares exactly but the trigram index
// folds (É/é, the Kelvin sign K, İ, ß), CJK, and text shorter than three.
var searchNames = []string{"Acme Corp", "ACME labs", "acme", "Globex 100%", "100 percent", "Initech_UK", "InitechXUK",
	`Back\slash Ltd`, `Quote "Q" Co`, "O'Brien & Sons", "Émile Zola SARL", "émile", "Straße GmbH", "STRASSE",
	"\u212Aelvin Co", "kelvin co", "İstanbul Ltd", "istanbul", "Ünïcödé ✓ 株式会社", "株式会社テスト", "", "ab", "x"}

var searchRefs = []string{"INV-001", "inv_%d", `INV\00%d`, "", "A", "Ref-Ä%d", "2026/%d", "ac"}

// TestSearchThroughIndexIsLIKE: a search read through its candidates (the
// trigram index and the amounts) lists the same payouts in the same order
// with the same total as one that tries LIKE on every payout, for every
// search, filter, sort and page, forward and back; and ListPayments, which
// picks between the two, too.
func TestSearchThroughIndexIsLIKE(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	db, sealer := openTestDB(t)
	u := testUser(t, db, sealer)
	var other User
	base := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	err := db.WithTx(ctx, func(tx *Tx) (err error) {
		if other, _, err = tx.People().EnsureUser("other@example.com", false, "", sealer); err != nil {
			return err
		}
		for i := range 600 {
			for _, owner := range []User{u, other} {
				if owner == other && i%4 != 0 {
					continue
				}
				ref := searchRefs[i%len(searchRefs)]
				if strings.Contains(ref, "%d") {
					ref = fmt.Sprintf(ref, i)
				}
				_, err := tx.Payments().CreatePayment(Payment{UserID: owner.ID, TxnID: fmt.Sprint(i), Amount: int64(1000 + i%7*100),
					Currency: []string{"USD", "EUR", "JPY"}[i%3], DestinationAddress: "GDEST", CounterpartyName: searchNames[i%len(searchNames)],
					InvoiceRef: ref, ClientID: []string{"", "cli_a", "cli_b"}[i%3]})
				if err != nil {
					return err
				}
			}
		}
		// Three payouts an hour, so the date order has ties the id breaks.
		if _, err := tx.exec("UPDATE payments SET created_at = ? + (rowid / 3) * 3600000", base.UnixMilli()); err != nil {
			return err
		}
		_, err = tx.exec("UPDATE payments SET status = 'COMPLETED' WHERE rowid % 5 = 0")
		return err
	})
	is.NoErr(err)

	searches := []string{"acme", "ACME", "cme", "Acme Corp", "me la", "100%", "%", "0%", "_", "h_U", "h_u", "h_X", `\`, `k\s`,
		`\00`, `"Q"`, `"`, `Quote "Q"`, "o'b", "'", "émile", "ÉMILE", "Émile", "straße", "STRASSE", "ss", "kelvin", "KELVIN",
		"\u212Aelvin", "istanbul", "İstanbul", "İST", "株式会社", "式会", "✓", "inv-0", "INV-00", "inv_", "inv_1", "Ref-ä", "Ref-Ä1",
		"2026/1", "northwind", "a", "ab", "Ac", " ", "   ", "ac\x00me", "\xffab", "Ltd", "co", "zzz", "10.00", "1,000", "11.00", "1200"}
	filters := []PaymentFilter{{}, {Status: StatusCompleted}, {ClientID: "cli_a"}, {Currency: "EUR"},
		{From: base.Add(50 * time.Hour), To: base.Add(150 * time.Hour)}, {Status: StatusInitiated, From: base.Add(20 * time.Hour)}}
	narrowed, found := 0, 0
	// Each search under each filter, in one of the two orders by turns:
	// every search and every filter meets both orders.
	for i, search := range searches {
		for j, fil := range filters {
			sort := []string{SortDate, SortAmount}[(i+j)%2]
			f := fil
			f.UserID, f.Search, f.Amounts, f.Sort = u.ID, search, amountsOf(search), sort
			want, wantTotal := listAll(t, db, f, false)
			if _, _, ok := f.candidates(); ok {
				narrowed++
				got, total := listAll(t, db, f, true)
				if !slices.Equal(got, want) || total != wantTotal {
					t.Errorf("%q %+v: through the index %d payouts (total %d), LIKE %d (total %d)", search, fil, len(got), total, len(want), wantTotal)
				}
				if (i+j)%3 == 0 { // paging, on a third of them
					if fwd, back := walk(t, db, f, true, len(want)); !slices.Equal(fwd, want) || !slices.Equal(back, want) {
						t.Errorf("%q %+v: paged through the index, forward %d and back %d payouts, want %d", search, fil, len(fwd), len(back), len(want))
					}
				}
			}
			ps, total, err := db.Payments().ListPayments(ctx, withPage(f, 1000))
			is.NoErr(err)
			if got := ids(ps); !slices.Equal(got, want) || total != wantTotal {
				t.Errorf("%q %+v: ListPayments %d payouts (total %d), LIKE %d (total %d)", search, fil, len(got), total, len(want), wantTotal)
			}
			found += len(want)
		}
	}
	is.True(narrowed > 200) // most searches have candidates to compare
	is.True(found > 2500)   // and they find payouts, not only none

	// What LIKE finds, and so the index must: letters beyond ASCII match
	// only themselves, ASCII letters in any case, % _ \ " only themselves.
	for search, want := range map[string]int{"émile": 26, "ÉMILE": 26, "kelvin": 26, "\u212Aelvin": 26, "STRASSE": 26, "straße": 26,
		"İstanbul": 26, "h_u": 26, `k\s`: 26, `"Q"`: 26, "100%": 26, "northwind": 0} {
		f := PaymentFilter{UserID: u.ID, Search: search}
		if got, _ := listAll(t, db, f, true); len(got) != want {
			t.Errorf("%q: %d payouts, want %d", search, len(got), want)
		}
	}
}

// TestSearchReadsCandidates: a search with few candidates reads them, not
// the user's payouts (the plan looks payouts up by rowid from the index
// and the amount index), and one with many walks the payouts instead.
func TestSearchReadsCandidates(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	db, sealer := openTestDB(t)
	u := testUser(t, db, sealer)
	createPayouts(t, db, u.ID, 80, func(i int, p *Payment) {
		p.CounterpartyName = map[bool]string{true: "Northwind Traders", false: "Acme"}[i < 5]
	})
	for search, want := range map[string]bool{"northwind": true, "zzz": true, "acme": false, "no": false} {
		narrow, err := db.searchNarrows(ctx, PaymentFilter{UserID: u.ID, Search: search})
		is.NoErr(err)
		if narrow != want {
			t.Errorf("%q: read through its candidates %v, want %v", search, narrow, want)
		}
	}
	f := PaymentFilter{UserID: u.ID, Search: "northwind", Amounts: []AmountMatch{{1000, []string{"USD"}}}, Status: StatusInitiated}
	where, args := f.where(true)
	for what, plan := range map[string]string{
		"page":      explain(t, db, "SELECT id FROM payments WHERE "+where+paymentOrder.orderBy()+" LIMIT 26", args...),
		"count":     explain(t, db, "SELECT count(*) FROM payments WHERE "+where, args...),
		"by amount": explain(t, db, "SELECT id FROM payments WHERE "+where+paymentAmountOrder.orderBy()+" LIMIT 26", args...),
	} {
		if !strings.Contains(plan, "SEARCH payments USING INTEGER PRIMARY KEY (rowid=?)") || !strings.Contains(plan, "payment_search VIRTUAL TABLE") ||
			!strings.Contains(plan, "payments_user_amount (user_id=? AND amount=?)") || strings.Contains(plan, "SCAN payments") {
			t.Errorf("%s: not read through the candidates:\n%s", what, plan)
		}
	}
}

// amountsOf reads a search as an amount of USD, EUR (cents) or JPY, as the
// server's input.AmountsOf does.
func amountsOf(search string) []AmountMatch {
	text := strings.ReplaceAll(search, ",", "")
	var whole, cents int64
	if n, _ := fmt.Sscanf(text, "%d.%02d", &whole, &cents); n == 0 || strings.Trim(text, "0123456789.") != "" {
		return nil
	}
	if !strings.Contains(text, ".") {
		return []AmountMatch{{whole, []string{"JPY"}}, {whole * 100, []string{"USD", "EUR"}}}
	}
	return []AmountMatch{{whole*100 + cents, []string{"USD", "EUR"}}}
}

func withPage(f PaymentFilter, limit int) PaymentFilter {
	f.Page, f.Limit = 1, limit
	return f
}

// listAll lists every payout the filter matches in one page.
func listAll(t *testing.T, db *DB, f PaymentFilter, narrow bool) ([]string, int) {
	t.Helper()
	ps, total, err := db.listPayments(context.Background(), withPage(f, 1000), narrow)
	if err != nil {
		t.Fatal(err)
	}
	return ids(ps), total
}

// walk pages through the list of total payouts in about ten pages (seven
// payouts a page at least), forward by After and then back from its last payout by Before,
// and returns both in list order.
func walk(t *testing.T, db *DB, f PaymentFilter, narrow bool, total int) (forward, back []string) {
	t.Helper()
	limit := max(7, total/10+1)
	page := func(f PaymentFilter) []string {
		ps, _, err := db.listPayments(context.Background(), withPage(f, limit), narrow)
		if err != nil {
			t.Fatal(err)
		}
		return ids(ps)
	}
	for f.After = ""; ; {
		got := page(f)
		forward = append(forward, got[:min(len(got), limit)]...)
		if len(got) <= limit {
			break
		}
		f.After = forward[len(forward)-1]
	}
	if len(forward) == 0 {
		return forward, nil
	}
	back = []string{forward[len(forward)-1]}
	for f.After, f.Before = "", forward[len(forward)-1]; ; {
		got := page(f) // the page in list order, then the payout before it if any
		back = append(slices.Clone(got[:min(len(got), limit)]), back...)
		if len(got) <= limit {
			break
		}
		f.Before = back[0]
	}
	return forward, back
}

// createPayouts makes n INITIATED payouts of 10.00 USD for userID in one
// transaction, each as fill completes it.
func createPayouts(t *testing.T, db *DB, userID string, n int, fill func(i int, p *Payment)) {
	t.Helper()
	err := db.WithTx(context.Background(), func(tx *Tx) error {
		for i := range n {
			p := Payment{UserID: userID, TxnID: fmt.Sprint(i), Amount: 1000, Currency: "USD", DestinationAddress: "GDEST"}
			fill(i, &p)
			if _, err := tx.Payments().CreatePayment(p); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func ids(ps []Payment) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		out = append(out, p.ID)
	}
	return out
}

// TestSearchIndexHoldsSeededPayouts: the bench's seeded payouts are in the
// search index, so a search of them reads the same through it.
func TestSearchIndexHoldsSeededPayouts(t *testing.T) {
	is := is.New(t)
	db, sealer := openTestDB(t)
	u := testUser(t, db, sealer)
	is.NoErr(db.Bench().SeedSettled(context.Background(), Seed{UserID: u.ID, From: 0, To: 120, Destination: "GDEST"}))
	f := PaymentFilter{UserID: u.ID, Search: "INV"}
	got, _ := listAll(t, db, f, true)
	want, _ := listAll(t, db, f, false)
	is.Equal(len(want), 120)
	is.Equal(got, want)
}

// TestSearchTextStaysAsRecorded: the search index holds a payout's client
// name and invoice reference as recorded, so neither may change after.
func TestSearchTextStaysAsRecorded(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	db, p := newPaymentForMoves(t)
	err := db.WithTx(ctx, func(tx *Tx) error {
		_, err := tx.exec("UPDATE payments SET invoice_ref = invoice_ref, counterparty_name = counterparty_name WHERE id = ?", p.ID)
		return err
	})
	is.NoErr(err) // unchanged is no change
	for _, col := range []string{"invoice_ref", "counterparty_name"} {
		err = db.WithTx(ctx, func(tx *Tx) error {
			_, err := tx.exec("UPDATE payments SET "+col+" = 'changed' WHERE id = ?", p.ID)
			return err
		})
		is.True(err != nil && strings.Contains(err.Error(), "stay as recorded"))
	}
}

// TestSearchIndexSurvivesBackup: the index names payouts by rowid, and a
// backup (VACUUM INTO) keeps both, so a search of the copy reads the same
// through it.
func TestSearchIndexSurvivesBackup(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	db, sealer := openTestDB(t)
	u := testUser(t, db, sealer)
	createPayouts(t, db, u.ID, 40, func(i int, p *Payment) {
		p.CounterpartyName, p.InvoiceRef = searchNames[i%len(searchNames)], fmt.Sprintf("INV-%d", i)
	})
	err := db.WithTx(ctx, func(tx *Tx) error {
		// Gaps in the rowids, which a copy that renumbered them would close.
		_, err := tx.exec("DELETE FROM payments WHERE rowid % 3 = 0")
		return err
	})
	is.NoErr(err)
	path := filepath.Join(t.TempDir(), "copy.db")
	l, err := Lock(db.Path, Copy) // as payoutd backup does, beside the server
	is.NoErr(err)
	src, err := l.Open(ctx, "")
	is.NoErr(err)
	_, err = src.BackupTo(ctx, path)
	is.NoErr(err)
	is.NoErr(src.Close())
	is.NoErr(os.Chmod(path, 0o600)) // a backup is written read-only
	cp, err := Open(ctx, path, todaysSchema(t))
	is.NoErr(err)
	defer cp.Close()
	for _, search := range []string{"acme", "INV-3", "Émile"} {
		f := PaymentFilter{UserID: u.ID, Search: search}
		want, _ := listAll(t, db, f, false)
		got, _ := listAll(t, cp, f, true)
		is.True(len(want) > 0)
		is.Equal(got, want)
	}
}
