package store

import (
	"context"
	"testing"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/apperr"
)

// fundTaxReserve credits the user's tax reserve from the external account,
// as a settlement's sequestration would, so a test can draw on it.
func fundTaxReserve(t *testing.T, db *DB, u User, paise int64) {
	t.Helper()
	err := db.WithTx(context.Background(), func(tx *Tx) error {
		ext, err := tx.ledgerAccount("", u.Livemode, AccountExternal, "INR", "")
		if err != nil {
			return err
		}
		reserve, err := tx.ledgerAccount(u.ID, u.Livemode, AccountTaxReserve, "INR", "")
		if err != nil {
			return err
		}
		_, err = tx.post(LedgerTxn{UserID: u.ID, Livemode: u.Livemode, Kind: "funding", Description: "test reserve",
			Postings: []Posting{{AccountID: ext, Amount: -paise, Currency: "INR"}, {AccountID: reserve, Amount: paise, Currency: "INR"}}})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// accountBalance is the balance column of the user's INR account of kind,
// checked against the sum of its postings; 0 when it does not exist.
func accountBalance(t *testing.T, db *DB, userID, kind string) int64 {
	t.Helper()
	var bal, sum int64
	err := db.r.QueryRow(`SELECT coalesce(max(a.balance), 0), coalesce((SELECT sum(p.amount) FROM ledger_postings p
		JOIN ledger_accounts b ON b.id = p.account_id WHERE b.user_id = ? AND b.kind = ?), 0)
		FROM ledger_accounts a WHERE a.user_id = ? AND a.kind = ? AND a.currency = 'INR'`, userID, kind, userID, kind).Scan(&bal, &sum)
	if err != nil {
		t.Fatal(err)
	}
	if bal != sum {
		t.Fatalf("%s account balance %d, but its postings sum to %d", kind, bal, sum)
	}
	return bal
}

// ledgerZero fails unless every journal transaction sums to zero.
func ledgerZero(t *testing.T, db *DB) {
	t.Helper()
	var bad int
	if err := db.r.QueryRow(`SELECT count(*) FROM (SELECT txn_id FROM ledger_postings GROUP BY txn_id, currency HAVING sum(amount) != 0)`).Scan(&bad); err != nil {
		t.Fatal(err)
	}
	if bad != 0 {
		t.Fatalf("%d ledger transactions do not sum to zero", bad)
	}
}

func countRows(t *testing.T, db *DB, q string, args ...any) int {
	t.Helper()
	var n int
	if err := db.r.QueryRow(q, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func testChallan(u User, serial string, paise int64, fromReserve bool) TaxPayment {
	return TaxPayment{UserID: u.ID, Livemode: u.Livemode, FY: "2025-26", Kind: "advance", Amount: paise, PaidOn: "2026-03-10",
		BSRCode: "0510002", ChallanSerial: serial, FromReserve: fromReserve}
}

func TestTaxPayments(t *testing.T) {
	ctx := context.Background()
	db, sealer := openTestDB(t)
	u := testUser(t, db, sealer)
	record := func(p TaxPayment) (TaxPayment, error) {
		var out TaxPayment
		err := db.WithTx(ctx, func(tx *Tx) (err error) { out, err = tx.Tax().RecordTaxPayment(p); return err })
		return out, err
	}
	reverse := func(userID, id string) (TaxPayment, error) {
		var out TaxPayment
		err := db.WithTx(ctx, func(tx *Tx) (err error) { out, err = tx.Tax().ReverseTaxPayment(userID, id); return err })
		return out, err
	}
	fundTaxReserve(t, db, u, 50_000_00)

	t.Run("NotFromReserveTouchesNoLedger", func(t *testing.T) {
		is := is.New(t)
		postings := countRows(t, db, "SELECT count(*) FROM ledger_postings")
		p, err := record(testChallan(u, "00001", 10_000_00, false))
		is.NoErr(err)
		is.Equal(p.Status(), TaxPaymentRecorded)
		is.Equal(p.LedgerTxnID, "")
		is.Equal(countRows(t, db, "SELECT count(*) FROM ledger_postings"), postings)
		is.Equal(accountBalance(t, db, u.ID, AccountTaxReserve), int64(50_000_00))
		is.Equal(countRows(t, db, "SELECT count(*) FROM audit_log WHERE action = 'tax.payment.recorded' AND resource_id = ?", p.ID), 1)
		is.Equal(countRows(t, db, "SELECT count(*) FROM events WHERE type = 'tax.payment.recorded' AND resource_id = ?", p.ID), 1)
	})

	t.Run("ErrMoreThanReserveWritesNothing", func(t *testing.T) {
		is := is.New(t)
		before := countRows(t, db, "SELECT (SELECT count(*) FROM tax_payments) + (SELECT count(*) FROM ledger_postings) + (SELECT count(*) FROM audit_log) + (SELECT count(*) FROM events)")
		_, err := record(testChallan(u, "00002", 50_000_01, true))
		is.Equal(apperr.Code(err), apperr.ErrInsufficientFunds)
		is.Equal(countRows(t, db, "SELECT (SELECT count(*) FROM tax_payments) + (SELECT count(*) FROM ledger_postings) + (SELECT count(*) FROM audit_log) + (SELECT count(*) FROM events)"), before)
		is.Equal(accountBalance(t, db, u.ID, AccountTaxReserve), int64(50_000_00))
	})

	var drawn TaxPayment
	t.Run("FromReserveMovesExactly", func(t *testing.T) {
		is := is.New(t)
		var err error
		drawn, err = record(testChallan(u, "00003", 50_000_00, true)) // all of it
		is.NoErr(err)
		is.True(drawn.LedgerTxnID != "")
		is.Equal(accountBalance(t, db, u.ID, AccountTaxReserve), int64(0))
		is.Equal(accountBalance(t, db, u.ID, AccountTaxPaid), int64(50_000_00))
		ledgerZero(t, db)
		_, err = record(testChallan(u, "00004", 1, true)) // the reserve is empty now
		is.Equal(apperr.Code(err), apperr.ErrInsufficientFunds)
	})

	t.Run("ErrSameChallanTwice", func(t *testing.T) {
		_, err := record(testChallan(u, "00003", 5_00, false))
		is.New(t).Equal(apperr.Code(err), apperr.ErrConflict)
	})

	t.Run("ErrOtherUsersPayment", func(t *testing.T) {
		is := is.New(t)
		var other User
		is.NoErr(db.WithTx(ctx, func(tx *Tx) (err error) {
			other, _, err = tx.People().EnsureUser("other@example.com", false, "", sealer)
			return err
		}))
		_, err := reverse(other.ID, drawn.ID)
		is.Equal(apperr.Code(err), apperr.ErrNotFound)
		_, err = db.Tax().FindTaxPayment(ctx, other.ID, drawn.ID)
		is.Equal(apperr.Code(err), apperr.ErrNotFound)
	})

	t.Run("ReversalRestoresReserve", func(t *testing.T) {
		is := is.New(t)
		p, err := reverse(u.ID, drawn.ID)
		is.NoErr(err)
		is.Equal(p.Status(), TaxPaymentReversed)
		is.True(p.ReversalTxnID != "" && p.ReversalTxnID != p.LedgerTxnID)
		is.Equal(accountBalance(t, db, u.ID, AccountTaxReserve), int64(50_000_00))
		is.Equal(accountBalance(t, db, u.ID, AccountTaxPaid), int64(0))
		ledgerZero(t, db)
		// The audit log keeps both rows.
		is.Equal(countRows(t, db, "SELECT count(*) FROM audit_log WHERE resource_id = ? AND action IN ('tax.payment.recorded', 'tax.payment.reversed')", p.ID), 2)
		_, err = reverse(u.ID, drawn.ID)
		is.Equal(apperr.Code(err), apperr.ErrInvalidState)
		// A reversed challan may be recorded again.
		_, err = record(testChallan(u, "00003", 5_00, false))
		is.NoErr(err)
	})

	t.Run("Reads", func(t *testing.T) {
		is := is.New(t)
		year, err := db.Tax().TaxPaymentsOfYear(ctx, u.ID, "2025-26")
		is.NoErr(err)
		is.Equal(len(year), 2) // 00001 and the re-recorded 00003; the reversed entry does not count
		for _, p := range year {
			is.Equal(p.Status(), TaxPaymentRecorded)
		}
		page, total, err := db.Tax().ListTaxPayments(ctx, TaxPaymentFilter{UserID: u.ID, FY: "2025-26", Page: 1, Limit: 2})
		is.NoErr(err)
		is.Equal(total, 3)     // the reversed one is listed
		is.Equal(len(page), 3) // the page of 2 and the entry after it (pageArgs)
		_, total, err = db.Tax().ListTaxPayments(ctx, TaxPaymentFilter{UserID: u.ID, FY: "2024-25", Page: 1, Limit: 20})
		is.NoErr(err)
		is.Equal(total, 0)
	})
}
