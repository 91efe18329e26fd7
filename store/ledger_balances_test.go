package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/internal/wait"
)

// reserveAccounts opens a database with a user whose INR tax reserve and
// the external INR account exist, for postings between them.
func reserveAccounts(t *testing.T) (db *DB, u User, from, to string) {
	t.Helper()
	db, sealer := openTestDB(t)
	u = testUser(t, db, sealer)
	err := db.WithTx(context.Background(), func(tx *Tx) (err error) {
		if from, err = tx.ledgerAccount("", u.Livemode, AccountExternal, "INR", ""); err != nil {
			return err
		}
		to, err = tx.ledgerAccount(u.ID, u.Livemode, AccountTaxReserve, "INR", "")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return db, u, from, to
}

// TestBalanceMovesOfABatch: transactions sharing a batch move account
// balances once, at its end, yet each reads on the writer every move made
// before it — the batch's earlier transactions' and its own. A transaction
// that fails after reading (and so writing) the batch's moves leaves them
// to the others, and the balances land equal to the sums of the postings.
func TestBalanceMovesOfABatch(t *testing.T) {
	is := is.New(t)
	db, u, from, to := reserveAccounts(t)
	ctx := context.Background()
	move := func(tx *Tx, paise int64) error {
		_, err := tx.post(LedgerTxn{UserID: u.ID, Livemode: u.Livemode, Kind: "funding", Description: "test",
			Postings: []Posting{{AccountID: from, Amount: -paise, Currency: "INR"}, {AccountID: to, Amount: paise, Currency: "INR"}}})
		return err
	}
	balance := func(tx *Tx) (b int64) {
		if err := tx.queryRow("SELECT balance FROM ledger_accounts WHERE id = ?", to).Scan(&b); err != nil {
			return -1
		}
		return b
	}
	boom := errors.New("boom")
	var seen2, seen3a, seen3b int64
	steps := []func(tx *Tx) error{
		func(tx *Tx) error { return move(tx, 100) },
		func(tx *Tx) error { seen2 = balance(tx); return move(tx, -30) },
		func(tx *Tx) error {
			if err := move(tx, 5); err != nil {
				return err
			}
			seen3a = balance(tx)
			if err := move(tx, 7); err != nil {
				return err
			}
			seen3b = balance(tx)
			return boom
		},
		func(tx *Tx) error { return move(tx, 1) },
	}
	hold, held := make(chan struct{}), make(chan struct{})
	go db.WithTx(ctx, func(*Tx) error { close(held); <-hold; return nil })
	<-held
	errs := make(chan error, len(steps))
	results := make([]error, len(steps))
	for i, step := range steps { // queued in order, so they run in order
		go func() { results[i] = db.WithTx(ctx, step); errs <- nil }()
		wait.Parked(t, 30*time.Second, i+1, "select", "sqlitex.(*DB).WithTx")
	}
	before := db.CommitStats().Batches
	close(hold)
	for range steps {
		<-errs
	}
	is.NoErr(results[0])
	is.NoErr(results[1])
	is.True(errors.Is(results[2], boom))
	is.NoErr(results[3])
	is.True(db.CommitStats().Batches-before <= 2) // the held batch, then the four together
	is.Equal(seen2, int64(100))                   // the batch's earlier move
	is.Equal(seen3a, int64(75))                   // and its own
	is.Equal(seen3b, int64(82))                   // written again after a read
	is.Equal(accountBalance(t, db, u.ID, AccountTaxReserve), int64(71))
	var entries int64
	is.NoErr(db.r.QueryRow("SELECT entries FROM ledger_accounts WHERE id = ?", to).Scan(&entries))
	is.Equal(entries, int64(3))
	ledgerZero(t, db)
}

// TestBalanceMoveToAMissingAccountFailsAlone: a posting to an account that
// does not exist in its currency is found only when the batch's balances
// are written; the batch then runs again member by member, the poster
// fails by itself and writes nothing, and the others land.
func TestBalanceMoveToAMissingAccountFailsAlone(t *testing.T) {
	is := is.New(t)
	db, u, from, to := reserveAccounts(t)
	ctx := context.Background()
	post := func(paise int64, currency, description string) func(tx *Tx) error {
		return func(tx *Tx) error {
			_, err := tx.post(LedgerTxn{UserID: u.ID, Livemode: u.Livemode, Kind: "funding", Description: description,
				Postings: []Posting{{AccountID: from, Amount: -paise, Currency: currency}, {AccountID: to, Amount: paise, Currency: currency}}})
			return err
		}
	}
	steps := []func(tx *Tx) error{post(100, "INR", "good"), post(50, "USD", "wrong currency"), post(1, "INR", "good")}
	hold, held := make(chan struct{}), make(chan struct{})
	go db.WithTx(ctx, func(*Tx) error { close(held); <-hold; return nil })
	<-held
	done := make(chan struct{}, len(steps))
	results := make([]error, len(steps))
	for i, step := range steps {
		go func() { results[i] = db.WithTx(ctx, step); done <- struct{}{} }()
		wait.Parked(t, 30*time.Second, i+1, "select", "sqlitex.(*DB).WithTx")
	}
	close(hold)
	for range steps {
		<-done
	}
	is.NoErr(results[0])
	is.True(results[1] != nil) // the account has no USD side
	is.NoErr(results[2])
	is.Equal(accountBalance(t, db, u.ID, AccountTaxReserve), int64(101))
	var wrong int
	is.NoErr(db.r.QueryRow("SELECT count(*) FROM ledger_txns WHERE description = 'wrong currency'").Scan(&wrong))
	is.Equal(wrong, 0)
	ledgerZero(t, db)
}
