package store

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/apperr"
)

// newPaymentForMoves records an INITIATED payment of a fresh user.
func newPaymentForMoves(t *testing.T) (*DB, Payment) {
	t.Helper()
	db, sealer := openTestDB(t)
	u := testUser(t, db, sealer)
	var p Payment
	err := db.WithTx(context.Background(), func(tx *Tx) (err error) {
		p, err = tx.Payments().CreatePayment(Payment{UserID: u.ID, TxnID: "txn_moves", Amount: 10000, Currency: "USD",
			DestinationAddress: "GDEST", PurposeCode: "P0802", CounterpartyName: "Acme", CounterpartyCountry: "US"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return db, p
}

// TestMovesOfAHeldRowLandAsOne: the moves after a transaction's first move
// of a payment are written with one UPDATE, before anything reads the
// payments table and when the transaction ends; what lands is what the
// moves one by one would have left. (Assertions stay outside the
// transaction: its fn runs on the committer's goroutine.)
func TestMovesOfAHeldRowLandAsOne(t *testing.T) {
	is := is.New(t)
	db, p := newPaymentForMoves(t)
	ctx := context.Background()
	var (
		changes        []int64 // total_changes() after the first move, after two held moves, after the read
		read           Payment
		staleErr       error
		changesQueryEr error
	)
	err := db.WithTx(ctx, func(tx *Tx) error {
		total := func() {
			var n int64
			if err := tx.queryRow("SELECT total_changes()").Scan(&n); err != nil {
				changesQueryEr = err
			}
			changes = append(changes, n)
		}
		if err := tx.Payments().Transition(&p, StatusComplianceCheck, nil); err != nil { // guarded: written at once
			return err
		}
		total()
		if err := tx.Payments().Transition(&p, StatusProcessing, nil); err != nil {
			return err
		}
		if err := tx.Payments().Transition(&p, StatusSubmitted, func(n *Payment) { n.SettlementRef = "ref_1" }); err != nil {
			return err
		}
		total()
		var err error
		if read, err = tx.Payments().LoadPayment(p.ID); err != nil { // names payments: the held moves land first
			return err
		}
		total()
		// Released by the read, the row is guarded again: a move of a copy
		// read before it is refused.
		stale := read
		stale.Status = StatusProcessing
		staleErr = tx.Payments().Transition(&stale, StatusSubmitted, nil)
		return tx.Payments().Transition(&p, StatusFailed, func(n *Payment) { n.FailedReason = "RAIL_REJECTED" }) // held until the end
	})
	is.NoErr(err)
	is.NoErr(changesQueryEr)
	is.Equal(changes[1], changes[0])   // the held moves are not yet written
	is.Equal(changes[2], changes[0]+1) // then both in one UPDATE
	is.Equal(read.Status, StatusSubmitted)
	is.Equal(read.SettlementRef, "ref_1")
	is.Equal(read.Version, int64(4))
	is.Equal(apperr.Code(staleErr), apperr.ErrInvalidState)

	got, err := db.Payments().FindPayment(ctx, p.UserID, p.ID)
	is.NoErr(err)
	is.Equal(got.Status, StatusFailed)
	is.Equal(got.FailedReason, "RAIL_REJECTED")
	is.Equal(got.SettlementRef, "ref_1")
	is.Equal(got.Version, int64(5)) // created at 1, moved four times
	for status, want := range map[string]int64{StatusInitiated: 0, StatusComplianceCheck: 0, StatusProcessing: 0,
		StatusSubmitted: 0, StatusFailed: 1} {
		var n int64
		is.NoErr(db.r.QueryRow("SELECT coalesce(sum(n), 0) FROM payment_counts WHERE user_id = ? AND status = ?", p.UserID, status).Scan(&n))
		is.Equal(n, want) // status count
	}
	var moves int
	is.NoErr(db.r.QueryRow("SELECT count(*) FROM audit_log WHERE resource_id = ? AND action != 'payment.initiated'", p.ID).Scan(&moves))
	is.Equal(moves, 4) // every move keeps its audit row
}

// TestHeldMoveOfAStaleCopyRefused: a move from a copy of the payment older
// than the held row is checked against the table, as any first move is.
func TestHeldMoveOfAStaleCopyRefused(t *testing.T) {
	is := is.New(t)
	db, p := newPaymentForMoves(t)
	ctx := context.Background()
	var staleErr error
	err := db.WithTx(ctx, func(tx *Tx) error {
		old := p
		if err := tx.Payments().Transition(&p, StatusComplianceCheck, nil); err != nil {
			return err
		}
		if err := tx.Payments().Transition(&p, StatusProcessing, nil); err != nil {
			return err
		}
		staleErr = tx.Payments().Transition(&old, StatusFailed, nil)
		return nil
	})
	is.NoErr(err)
	is.Equal(apperr.Code(staleErr), apperr.ErrInvalidState)
	got, err := db.Payments().FindPayment(ctx, p.UserID, p.ID)
	is.NoErr(err)
	is.Equal(got.Status, StatusProcessing) // the held move landed before the check
}

// TestHeldMovesOfAFailedTransactionNeverLand: a transaction that fails
// after moving a payment leaves it as it was.
func TestHeldMovesOfAFailedTransactionNeverLand(t *testing.T) {
	is := is.New(t)
	db, p := newPaymentForMoves(t)
	ctx := context.Background()
	boom := errors.New("boom")
	err := db.WithTx(ctx, func(tx *Tx) error {
		q := p
		if err := tx.Payments().Transition(&q, StatusComplianceCheck, nil); err != nil {
			return err
		}
		if err := tx.Payments().Transition(&q, StatusProcessing, nil); err != nil {
			return err
		}
		return boom
	})
	is.True(errors.Is(err, boom))
	got, err := db.Payments().FindPayment(ctx, p.UserID, p.ID)
	is.NoErr(err)
	is.Equal(got.Status, StatusInitiated)
	is.Equal(got.Version, p.Version)
}

// TestNothingReadsHeldTablesBehindTheDoor: a held payment row and pending
// balance moves are written before any statement that names their table,
// so no trigger or view may read those tables under another name, and no
// trigger may count their updates. A trigger on payments that no held move
// fires (one on an insert or a delete, or an update of columns no move
// sets) may look at the row written (NEW, OLD): the search text's guard.
func TestNothingReadsHeldTablesBehindTheDoor(t *testing.T) {
	is := is.New(t)
	db, _ := openTestDB(t)
	for _, table := range []string{"payments", "ledger_accounts"} {
		rows, err := db.r.Query(`SELECT type, name, tbl_name, sql FROM sqlite_master WHERE type IN ('trigger', 'view') AND sql LIKE ?`, "%"+table+"%")
		is.NoErr(err)
		for rows.Next() {
			var typ, name, on, sql string
			is.NoErr(rows.Scan(&typ, &name, &on, &sql))
			if typ == "trigger" && on == "payments" && relaysUnheldWrite(sql) {
				continue
			}
			t.Errorf("%s %s reads %s, where what a transaction holds back is not written first", typ, name, table)
		}
		is.NoErr(rows.Err())
		rows.Close()
	}
}

// relaysUnheldWrite reports whether a trigger on payments fires on no held
// move (an insert, a delete, or an update of columns neither move
// statement sets) and reads no payments row but the one written.
func relaysUnheldWrite(trigger string) bool {
	head, body, ok := strings.Cut(trigger, "BEGIN")
	if !ok || strings.Contains(body, "payments") {
		return false
	}
	if strings.Contains(head, " INSERT ON ") || strings.Contains(head, " DELETE ON ") {
		return true
	}
	_, cols, ok := strings.Cut(head, " UPDATE OF ")
	if !ok {
		return false
	}
	cols, _, _ = strings.Cut(cols, " ON ")
	for _, c := range strings.Split(cols, ",") {
		set := strings.TrimSpace(c) + " ="
		if strings.Contains(movePayment, set) || strings.Contains(movePaymentAndVault, set) {
			return false
		}
	}
	return true
}

// TestMovesCheckedLate: in a transaction opened with CheckMovesLate even
// the first move of a payment waits, and all of them land with the one
// guarded UPDATE; a payment moved by someone else since it was read fails
// the transaction with ERR_INVALID_STATE, at its end or at a constraint
// failure before it, and nothing of it is written.
func TestMovesCheckedLate(t *testing.T) {
	db, p := newPaymentForMoves(t)
	ctx := context.Background()
	moves := func(tx *Tx, q *Payment) error {
		if err := tx.Payments().Transition(q, StatusComplianceCheck, nil); err != nil {
			return err
		}
		return tx.Payments().Transition(q, StatusFailed, func(n *Payment) { n.FailedReason = "COMPLIANCE_REJECTED: test" })
	}
	t.Run("OneUpdate", func(t *testing.T) {
		is := is.New(t)
		var changes [2]int64
		err := db.WithTx(ctx, func(tx *Tx) error {
			if err := tx.queryRow("SELECT total_changes()").Scan(&changes[0]); err != nil {
				return err
			}
			q := p
			if err := moves(tx, &q); err != nil {
				return err
			}
			return tx.queryRow("SELECT total_changes()").Scan(&changes[1])
		}, CheckMovesLate())
		is.NoErr(err)
		is.Equal(changes[1], changes[0]) // not yet written when the transaction's fn ends
		got, err := db.Payments().FindPayment(ctx, p.UserID, p.ID)
		is.NoErr(err)
		is.Equal(got.Status, StatusFailed)
		is.Equal(got.Version, p.Version+2)
	})
	t.Run("ErrMovedMeanwhile", func(t *testing.T) {
		is := is.New(t)
		stale := p // as read before OneUpdate moved it
		stale.Status = StatusInitiated
		err := db.WithTx(ctx, func(tx *Tx) error { q := stale; return moves(tx, &q) }, CheckMovesLate())
		is.Equal(apperr.Code(err), apperr.ErrInvalidState)
	})
	t.Run("ErrMovedMeanwhileThenConstraint", func(t *testing.T) {
		is := is.New(t)
		boom := errors.New("unreached")
		err := db.WithTx(ctx, func(tx *Tx) error {
			q := p
			if err := moves(tx, &q); err != nil {
				return err
			}
			// The user's KYC row again: a constraint failure, reported as
			// the stale move before it.
			if _, err := tx.exec("INSERT INTO kyc (user_id, status, updated_at) VALUES (?, 'PENDING', 0)", p.UserID); err != nil {
				return err
			}
			return boom
		}, CheckMovesLate())
		is.Equal(apperr.Code(err), apperr.ErrInvalidState)
		var audits int
		is.NoErr(db.r.QueryRow("SELECT count(*) FROM audit_log WHERE resource_id = ?", p.ID).Scan(&audits))
		is.Equal(audits, 3) // initiated and OneUpdate's two moves
	})
}
