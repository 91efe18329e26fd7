package store

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// TestSearchIndexRenumberedFoundAndRebuilt: a file whose payouts' rowids
// moved (as a rebuild from an SQL dump moves them) keeps an index that
// points elsewhere; check says so, and opening it with its schema (what
// payoutd migrate and serve do) rebuilds the index, after which a search
// finds what trying every payout finds.
func TestSearchIndexRenumberedFoundAndRebuilt(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	db, sealer := openTestDB(t)
	u := testUser(t, db, sealer)
	createPayouts(t, db, u.ID, 30, func(i int, p *Payment) {
		p.CounterpartyName, p.InvoiceRef = fmt.Sprintf("Client %02d Ltd", i), fmt.Sprintf("INV-%d", i)
	})
	problems, err := db.Health().CheckFile(ctx, true)
	is.NoErr(err)
	is.Equal(problems, nil) // a sound index

	err = db.WithTx(ctx, func(tx *Tx) error {
		_, err := tx.exec("UPDATE payments SET rowid = 1000 - rowid")
		return err
	})
	is.NoErr(err)
	f := PaymentFilter{UserID: u.ID, Search: "client 07"}
	got, _ := listAll(t, db, f, true)
	is.Equal(len(got), 0) // what a renumbered file's search would answer
	problems, err = db.Health().CheckFile(ctx, true)
	is.NoErr(err)
	is.Equal(len(problems), 1)
	is.True(strings.HasPrefix(problems[0], "payment_search: 30 of 30 payouts sampled are not found"))

	path := db.Path
	is.NoErr(db.Close())
	db, err = Open(ctx, path, todaysSchema(t))
	is.NoErr(err)
	defer db.Close()
	problems, err = db.Health().CheckFile(ctx, true)
	is.NoErr(err)
	is.Equal(problems, nil)
	got, _ = listAll(t, db, f, true)
	want, _ := listAll(t, db, f, false)
	is.Equal(len(want), 1)
	is.Equal(got, want)
}

func TestIndexedRun(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Acme Ltd", "Acm"}, {"Émile", "Émi"}, {"ab", ""}, {"", ""}, {"a\x00bc", ""}, {"\xffabc", ""}, {"日本語テ", "日本語"},
	} {
		if got := indexedRun(c.text); got != c.want {
			t.Errorf("indexedRun(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}
