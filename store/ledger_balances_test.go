package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/internal/wait"
)

// reserveTest is a database with a user whose INR tax reserve and the
// external INR account exist, for postings between them.
type reserveTest struct {
	db       *DB
	u        User
	from, to string // the external account, the reserve
}

func newReserveTest(t *testing.T) reserveTest {
	t.Helper()
	db, sealer := openTestDB(t)
	r := reserveTest{db: db, u: testUser(t, db, sealer)}
	err := db.WithTx(context.Background(), func(tx *Tx) (err error) {
		if r.from, err = tx.ledgerAccount("", r.u.Livemode, AccountExternal, "INR", ""); err != nil {
			return err
		}
		r.to, err = tx.ledgerAccount(r.u.ID, r.u.Livemode, AccountTaxReserve, "INR", "")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// post moves paise from the external account into the reserve.
func (r reserveTest) post(tx *Tx, paise int64, currency, description string) error {
	_, err := tx.post(LedgerTxn{UserID: r.u.ID, Livemode: r.u.Livemode, Kind: "funding", Description: description,
		Postings: []Posting{{AccountID: r.from, Amount: -paise, Currency: currency}, {AccountID: r.to, Amount: paise, Currency: currency}}})
	return err
}

// inOrderInOneBatch holds the committer while steps queue up one after
// another, then lets them run together, in that order, and returns their
// results.
func inOrderInOneBatch(t *testing.T, db *DB, steps []func(tx *Tx) error) []error {
	t.Helper()
	ctx := context.Background()
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
	return results
}

// TestBalanceMovesOfABatch: transactions sharing a batch move account
// balances once, at its end, yet each reads on the writer every move made
// before it — the batch's earlier transactions' and its own. A transaction
// that fails after reading (and so writing) the batch's moves leaves them
// to the others, and the balances land equal to the sums of the postings.
func TestBalanceMovesOfABatch(t *testing.T) {
	is := is.New(t)
	r := newReserveTest(t)
	move := func(tx *Tx, paise int64) error { return r.post(tx, paise, "INR", "test") }
	balance := func(tx *Tx) (b int64) {
		if err := tx.queryRow("SELECT balance FROM ledger_accounts WHERE id = ?", r.to).Scan(&b); err != nil {
			return -1
		}
		return b
	}
	boom := errors.New("boom")
	var seen2, seen3a, seen3b int64
	before := r.db.CommitStats().Batches
	results := inOrderInOneBatch(t, r.db, []func(tx *Tx) error{
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
	})
	is.NoErr(results[0])
	is.NoErr(results[1])
	is.True(errors.Is(results[2], boom))
	is.NoErr(results[3])
	is.True(r.db.CommitStats().Batches-before <= 2) // the held batch, then the four together
	is.Equal(seen2, int64(100))                     // the batch's earlier move
	is.Equal(seen3a, int64(75))                     // and its own
	is.Equal(seen3b, int64(82))                     // written again after a read
	is.Equal(accountBalance(t, r.db, r.u.ID, AccountTaxReserve), int64(71))
	var entries int64
	is.NoErr(r.db.r.QueryRow("SELECT entries FROM ledger_accounts WHERE id = ?", r.to).Scan(&entries))
	is.Equal(entries, int64(3))
	ledgerZero(t, r.db)
}

// TestBalanceMoveToAMissingAccountFailsAlone: a posting to an account that
// does not exist in its currency is found only when the batch's balances
// are written; the batch then runs again member by member, the poster
// fails by itself and writes nothing, and the others land.
func TestBalanceMoveToAMissingAccountFailsAlone(t *testing.T) {
	is := is.New(t)
	r := newReserveTest(t)
	post := func(paise int64, currency, description string) func(tx *Tx) error {
		return func(tx *Tx) error { return r.post(tx, paise, currency, description) }
	}
	results := inOrderInOneBatch(t, r.db, []func(tx *Tx) error{
		post(100, "INR", "good"), post(50, "USD", "wrong currency"), post(1, "INR", "good")})
	is.NoErr(results[0])
	is.True(results[1] != nil) // the account has no USD side
	is.NoErr(results[2])
	is.Equal(accountBalance(t, r.db, r.u.ID, AccountTaxReserve), int64(101))
	var wrong int
	is.NoErr(r.db.r.QueryRow("SELECT count(*) FROM ledger_txns WHERE description = 'wrong currency'").Scan(&wrong))
	is.Equal(wrong, 0)
	ledgerZero(t, r.db)
}
