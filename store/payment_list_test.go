package store

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/matryer/is"
)

// TestListPaymentsSearchAndSort: a search finds a client's name or an
// invoice reference by any part in any case (its % and _ only match
// themselves) or an amount in the currencies it names; sorting by amount
// pages forward and back with no payout missed or seen twice.
func TestListPaymentsSearchAndSort(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	db, sealer := openTestDB(t)
	u := testUser(t, db, sealer)
	names := []string{"Acme Corp", "acme labs", "Globex 100%", "Initech_UK", "Umbrella"}
	err := db.WithTx(ctx, func(tx *Tx) error {
		for i := range 60 {
			_, err := tx.Payments().CreatePayment(Payment{UserID: u.ID, TxnID: fmt.Sprint(i), Amount: int64(1000 + i%7*100), Currency: []string{"USD", "JPY"}[i%2],
				DestinationAddress: "GDEST", CounterpartyName: names[i%5], InvoiceRef: fmt.Sprintf("INV-%03d", i)})
			if err != nil {
				return err
			}
		}
		return nil
	})
	is.NoErr(err)
	count := func(f PaymentFilter) int {
		f.UserID, f.Page, f.Limit = u.ID, 1, 100
		ps, n, err := db.Payments().ListPayments(ctx, f)
		is.NoErr(err)
		is.Equal(len(ps), n)
		return n
	}
	for _, c := range []struct {
		f    PaymentFilter
		want int
	}{
		{PaymentFilter{Search: "ACME"}, 24},
		{PaymentFilter{Search: "me la"}, 12},
		{PaymentFilter{Search: "100%"}, 12},
		{PaymentFilter{Search: "%"}, 12},   // only the name that holds one
		{PaymentFilter{Search: "h_U"}, 12}, // _ is no wildcard: Initech_UK
		{PaymentFilter{Search: "h_X"}, 0},
		{PaymentFilter{Search: "inv-05"}, 10},
		{PaymentFilter{Amounts: []AmountMatch{{1000, []string{"USD"}}}}, 5},
		{PaymentFilter{Amounts: []AmountMatch{{1000, []string{"USD", "JPY"}}}}, 9},
		{PaymentFilter{Search: "acme", Currency: "JPY"}, 12},
	} {
		if got := count(c.f); got != c.want {
			t.Errorf("%+v: %d payouts, want %d", c.f, got, c.want)
		}
	}

	// Largest first, ten a page, forward and then back again.
	var forward []string
	f := PaymentFilter{UserID: u.ID, Sort: SortAmount, Page: 1, Limit: 10}
	for {
		ps, _, err := db.Payments().ListPayments(ctx, f)
		is.NoErr(err)
		page := ps[:min(len(ps), 10)]
		for i, p := range page {
			is.True(i == 0 || page[i-1].Amount >= p.Amount)
			forward = append(forward, p.ID)
		}
		if len(ps) <= 10 {
			break
		}
		f.After = page[len(page)-1].ID
	}
	is.Equal(len(forward), 60)
	var back []string
	f = PaymentFilter{UserID: u.ID, Sort: SortAmount, Before: forward[len(forward)-1], Page: 1, Limit: 10}
	back = append(back, forward[len(forward)-1])
	for {
		ps, _, err := db.Payments().ListPayments(ctx, f)
		is.NoErr(err)
		page := ps[:min(len(ps), 10)]
		for i := len(page) - 1; i >= 0; i-- {
			back = append(back, page[i].ID)
		}
		if len(ps) <= 10 {
			break
		}
		f.Before = page[0].ID
	}
	slices.Reverse(back)
	is.Equal(back, forward)
}
