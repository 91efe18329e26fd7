package store

import (
	"context"
	"errors"
	"testing"

	"github.com/matryer/is"
)

// TestAccountCacheForgetsRolledBack: an account created by a transaction
// that rolled back does not exist, so the next transaction must not be
// handed its id; one that committed is found again without a new row.
func TestAccountCacheForgetsRolledBack(t *testing.T) {
	is := is.New(t)
	db, _ := openTestDB(t)
	ctx := context.Background()
	var lost, kept, again string
	boom := errors.New("boom")
	err := db.WithTx(ctx, func(tx *Tx) error {
		var err error
		lost, err = tx.ledgerAccount("", false, AccountExternal, "USD", "")
		is.NoErr(err)
		return boom
	})
	is.True(errors.Is(err, boom))
	is.NoErr(db.WithTx(ctx, func(tx *Tx) error {
		var err error
		kept, err = tx.ledgerAccount("", false, AccountExternal, "USD", "")
		return err
	}))
	is.True(kept != lost)
	is.NoErr(db.WithTx(ctx, func(tx *Tx) error {
		var err error
		again, err = tx.ledgerAccount("", false, AccountExternal, "USD", "")
		if err != nil {
			return err
		}
		other, err := tx.ledgerAccount("", false, AccountFXClearing, "USD", "")
		if err != nil {
			return err
		}
		_, err = tx.post(LedgerTxn{Kind: "funding", Description: "test", Postings: []Posting{
			{AccountID: again, Amount: -5, Currency: "USD"}, {AccountID: other, Amount: 5, Currency: "USD"}}})
		return err
	}))
	is.Equal(again, kept)
	var n int
	is.NoErr(db.r.QueryRow("SELECT count(*) FROM ledger_accounts WHERE kind = ? AND currency = 'USD'", AccountExternal).Scan(&n))
	is.Equal(n, 1)
}
