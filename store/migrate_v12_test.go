package store

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/matryer/is"
)

// TestMigrateVersion12 builds a version-11 file, which has no search index,
// holding payouts, opens it twice, and checks that a search read through
// the new index finds the payouts made before it, and one made after.
func TestMigrateVersion12(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v11.db")
	db, err := Open(ctx, path, todaysSchema(t))
	is.NoErr(err)
	_, err = db.x.Writer().Exec(`
		DROP TRIGGER payments_search_text_kept;
		DROP TABLE payment_search;
		INSERT INTO users VALUES ('usr_1', 'a@example.com', 0, 1);
		PRAGMA user_version = 11;`)
	is.NoErr(err)
	for i := range 40 {
		name := map[bool]string{true: "Northwind Traders", false: "Acme"}[i == 3]
		_, err = db.x.Writer().Exec(`INSERT INTO payments (id, user_id, livemode, txn_id, type, status, amount, currency,
			destination_address, counterparty_name, invoice_ref, created_at, updated_at)
			VALUES (?, 'usr_1', 0, ?, 'SEND', 'INITIATED', 100, 'USD', 'GDEST', ?, ?, ?, ?)`,
			fmt.Sprintf("pay_%02d", i), fmt.Sprint(i), name, fmt.Sprintf("INV-%02d", i), i, i)
		is.NoErr(err)
	}
	_, err = db.x.Writer().Exec("INSERT INTO payment_counts (user_id, status, n) VALUES ('usr_1', 'INITIATED', 40)")
	is.NoErr(err)
	is.NoErr(db.Close())

	for open := range 2 { // the second open finds version 12 and does nothing
		db, err = Open(ctx, path, todaysSchema(t))
		is.NoErr(err)
		withoutRiver(db)
		var version int
		is.NoErr(db.r.QueryRow("PRAGMA user_version").Scan(&version))
		is.Equal(version, SchemaVersion)
		var made Payment
		if open == 1 {
			err = db.WithTx(ctx, func(tx *Tx) (err error) {
				made, err = tx.Payments().CreatePayment(Payment{UserID: "usr_1", TxnID: "new", Amount: 100, Currency: "USD",
					DestinationAddress: "GDEST", CounterpartyName: "NORTHWIND Inc"})
				return err
			})
			is.NoErr(err)
		}
		for search, want := range map[string][]string{
			"northwind": map[bool][]string{false: {"pay_03"}, true: {made.ID, "pay_03"}}[open == 1],
			"inv-1":     {"pay_19", "pay_18", "pay_17", "pay_16", "pay_15", "pay_14", "pay_13", "pay_12", "pay_11", "pay_10"},
			"inv-3":     {"pay_39", "pay_38", "pay_37", "pay_36", "pay_35", "pay_34", "pay_33", "pay_32", "pay_31", "pay_30"},
		} {
			f := PaymentFilter{UserID: "usr_1", Search: search, Page: 1, Limit: 50}
			if search == "northwind" {
				narrow, err := db.searchNarrows(ctx, f)
				is.NoErr(err)
				is.True(narrow) // read through the index, which holds the older payouts
			}
			ps, n, err := db.Payments().ListPayments(ctx, f)
			is.NoErr(err)
			var ids []string
			for _, p := range ps {
				ids = append(ids, p.ID)
			}
			is.Equal(ids, want)
			is.Equal(n, len(want))
		}
		is.NoErr(db.Close())
	}
}
