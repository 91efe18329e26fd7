package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/india"
)

func openTaxDB(tb testing.TB) *DB {
	tb.Helper()
	schema, err := os.ReadFile(filepath.Join("..", "schema.sql"))
	if err != nil {
		tb.Fatal(err)
	}
	db, err := Open(context.Background(), filepath.Join(tb.TempDir(), "tax.db"), string(schema))
	if err != nil {
		tb.Fatal(err)
	}
	withoutRiver(db)
	tb.Cleanup(func() { db.Close() })
	return db
}

// seedReceipts writes n settled payouts of one user straight into payments
// and reconciliations, spread over FY 2025-26: every fifth is still
// PENDING_RECONCILIATION and every third is domestic. Amounts are 1,000.00 +
// i paise.
func seedReceipts(tb testing.TB, db *DB, userID string, n int) {
	tb.Helper()
	ctx := context.Background()
	start := india.FY{StartYear: 2025}.Start()
	step := india.FY{StartYear: 2025}.End().Sub(start) / time.Duration(n+1)
	err := db.WithTx(ctx, func(tx *Tx) error {
		if _, err := tx.exec("INSERT INTO users (id, email, livemode, created_at) VALUES (?, ?, 0, 0)", userID, userID+"@example.com"); err != nil {
			return err
		}
		pay, err := tx.x.SQL().PrepareContext(ctx, `INSERT INTO payments (id, user_id, livemode, txn_id, type, status, amount, currency,
			destination_address, counterparty_country, amount_inr, settled_at, created_at, updated_at)
			VALUES (?, ?, 0, ?, 'SEND', 'COMPLETED', ?, 'USD', 'G', ?, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer pay.Close()
		rec, err := tx.x.SQL().PrepareContext(ctx, `INSERT INTO reconciliations (payment_id, user_id, livemode, status, amount_inr,
			settled_at, created_at) VALUES (?, ?, 0, ?, ?, ?, ?)`)
		if err != nil {
			return err
		}
		defer rec.Close()
		for i := 0; i < n; i++ {
			id := userID + "_" + strconv.Itoa(i)
			settled := ms(start.Add(step * time.Duration(i+1)))
			country, status, inr := "US", Reconciled, int64(100000+i)
			if i%3 == 0 {
				country = ""
			}
			if i%5 == 0 {
				status = PendingReconciliation
			}
			if _, err := pay.ExecContext(ctx, id, userID, id, 1200+i, country, inr, settled, settled, settled); err != nil {
				return err
			}
			if _, err := rec.ExecContext(ctx, id, userID, status, inr, settled, settled); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// scale is the row count a scale test runs at: def, or the environment
// variable name when set (measurements in the docs use 1000000).
func scale(t *testing.T, name string, def int) int {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return n
}

// timings is how many times a scale test repeats a read to time it: 200
// when name is set (a measuring run), else once, which proves the answer.
func timings(name string) int {
	if os.Getenv(name) != "" {
		return 200
	}
	return 1
}

func refresh(tb testing.TB, db *DB, userID string) time.Duration {
	tb.Helper()
	t0 := time.Now()
	if err := db.WithTx(context.Background(), func(tx *Tx) error { return tx.Tax().RefreshTaxFigures(userID) }); err != nil {
		tb.Fatal(err)
	}
	return time.Since(t0)
}

// TestTaxFiguresAtScale checks the maintained aggregates against a direct
// sum of the reconciled rows, and that a read is a primary-key range. Set
// PAYOUTD_TAX_SCALE=1000000 to measure at a million payouts (docs/tax.md).
func TestTaxFiguresAtScale(t *testing.T) {
	n := scale(t, "PAYOUTD_TAX_SCALE", 5000)
	is := is.New(t)
	ctx := context.Background()
	db := openTaxDB(t)
	t0 := time.Now()
	seedReceipts(t, db, "usr_scale", n)
	t.Logf("seeded %d payouts in %s", n, time.Since(t0))
	t.Logf("first refresh (full rebuild): %s", refresh(t, db, "usr_scale"))

	fy := india.FY{StartYear: 2025}
	from, to := fy.Start().In(india.IST).Format(time.DateOnly), fy.End().Add(-time.Millisecond).In(india.IST).Format(time.DateOnly)
	read := func() india.ReceiptSplit {
		var days []TaxDay
		is.NoErr(db.Snapshot(ctx, func(s *Snapshot) (err error) {
			days, err = s.TaxDays("usr_scale", from, to)
			return err
		}))
		return india.SplitReceipts(ReceiptDaysOfTax(days), nil, nil)
	}
	var wantCount, wantSum, wantDomestic, wantIGST int64
	is.NoErr(db.r.QueryRow(`SELECT count(*), sum(r.amount_inr), sum(p.counterparty_country = ''),
		sum(CASE WHEN p.counterparty_country != '' THEN (r.amount_inr * 18 + 50) / 100 ELSE 0 END)
		FROM reconciliations r JOIN payments p ON p.id = r.payment_id WHERE r.status = 'RECONCILED'`).Scan(&wantCount, &wantSum, &wantDomestic, &wantIGST))
	got := read()
	is.Equal(got.All.Count, wantCount)
	is.Equal(got.All.AmountINR, wantSum)
	is.Equal(got.Domestic.Count, wantDomestic)
	is.Equal(got.Liable.IGST, wantIGST) // no LUT: every export is liable

	t0 = time.Now()
	reads := timings("PAYOUTD_TAX_SCALE")
	for i := 0; i < reads; i++ {
		read()
	}
	t.Logf("FY read (TaxDays + SplitReceipts): %s each", time.Since(t0)/time.Duration(reads))

	// The GST days hold the same receipts (none has an invoice date here).
	readGST := func() india.ReceiptSplit {
		var days []GSTDay
		is.NoErr(db.Snapshot(ctx, func(s *Snapshot) (err error) {
			days, err = s.GSTDays("usr_scale", from, to)
			return err
		}))
		return india.SplitReceipts(ReceiptDaysOfGST(days), nil, india.RegistrationOf(india.RegistrationInput{GSTIN: "27ABCPR1234K1ZN"}, "2025-04-01", nil))
	}
	gst := readGST()
	is.Equal(gst.Liable.IGST, wantIGST)
	is.Equal(gst.Liable.Count+gst.Domestic.Count, wantCount)
	is.Equal(gst.ByInvoiceDate, int64(0))
	t0 = time.Now()
	for i := 0; i < reads; i++ {
		readGST()
	}
	t.Logf("FY GST read (GSTDays + SplitReceipts): %s each", time.Since(t0)/time.Duration(reads))

	// What the figures leave out: the pending receipts of the year.
	var wantPending int64
	is.NoErr(db.r.QueryRow(`SELECT count(*) FROM reconciliations WHERE status = 'PENDING_RECONCILIATION'`).Scan(&wantPending))
	t0 = time.Now()
	var u Unreconciled
	err := db.Snapshot(ctx, func(s *Snapshot) (err error) {
		u, err = s.UnreconciledReceipts("usr_scale", fy.Start(), fy.End())
		return err
	})
	t.Logf("unreconciled receipts of the FY (%d): %s", u.Count, time.Since(t0))
	is.NoErr(err)
	is.Equal(u.Count, wantPending)
	is.True(len(u.PaymentIDs) > 0 && len(u.PaymentIDs) <= 20)

	// One more reconciliation: the next refresh adds just that payout.
	_, err = db.x.Writer().Exec("UPDATE reconciliations SET status = 'RECONCILED' WHERE payment_id = 'usr_scale_0'")
	is.NoErr(err)
	t.Logf("incremental refresh (one new reconciliation): %s", refresh(t, db, "usr_scale"))
	is.Equal(read().All.Count, wantCount+1)

	is.True(strings.Contains(queryPlan(t, db, from, to), "SEARCH tax_days USING PRIMARY KEY")) // a range, never a scan
	is.True(strings.Contains(explain(t, db, `SELECT day, cross_border, currency, rate_date, rate, txn_count, by_invoice,
		invoice_amount, value_inr, igst_18 FROM gst_days WHERE user_id = ? AND day >= ? AND day <= ?
		ORDER BY day, cross_border, currency, rate_date, rate`, "u", from, to), "SEARCH gst_days USING PRIMARY KEY"))
}

// queryPlan is SQLite's plan for TaxDays' query.
func queryPlan(t *testing.T, db *DB, from, to string) string {
	t.Helper()
	return explain(t, db, `SELECT day, cross_border, txn_count, amount_inr, igst_18, first_settled_at,
		last_settled_at FROM tax_days WHERE user_id = ? AND day >= ? AND day <= ? ORDER BY day, cross_border`, "u", from, to)
}

// explain is SQLite's query plan for query, one step per line.
func explain(t *testing.T, db *DB, query string, args ...any) string {
	t.Helper()
	rows, err := db.r.Query("EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan strings.Builder
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan.WriteString(detail + "\n")
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return plan.String()
}

// TestRefreshTaxFigures buckets receipts either side of midnight IST, adds
// a payout reconciled at settlement and a later resolve incrementally (the
// same figures as a rebuild), and rebuilds after an out-of-band edit.
func TestRefreshTaxFigures(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	db := openTaxDB(t)
	seedReceipts(t, db, "usr_r", 0) // just the user
	add := func(id, country, status string, inr int64, at time.Time) {
		t.Helper()
		is.NoErr(db.WithTx(ctx, func(tx *Tx) error {
			if _, err := tx.exec(`INSERT INTO payments (id, user_id, livemode, txn_id, type, status, amount, currency,
				destination_address, counterparty_country, amount_inr, settled_at, created_at, updated_at)
				VALUES (?, 'usr_r', 0, ?, 'SEND', 'COMPLETED', 1, 'USD', 'G', ?, ?, ?, 0, 0)`, id, id, country, inr, ms(at)); err != nil {
				return err
			}
			_, err := tx.exec(`INSERT INTO reconciliations (payment_id, user_id, livemode, status, amount_inr,
				settled_at, created_at) VALUES (?, 'usr_r', 0, ?, ?, ?, 0)`, id, status, inr, ms(at))
			return err
		}))
	}
	days := func() string {
		var out []string
		rows, err := db.r.Query(`SELECT day, cross_border, txn_count, amount_inr, igst_18, first_settled_at, last_settled_at
			FROM tax_days WHERE user_id = 'usr_r' ORDER BY day, cross_border`)
		is.NoErr(err)
		defer rows.Close()
		for rows.Next() {
			var day string
			var cross bool
			var n, amount, igst, first, last int64
			is.NoErr(rows.Scan(&day, &cross, &n, &amount, &igst, &first, &last))
			out = append(out, fmt.Sprintf("%s %v n=%d inr=%d igst=%d %s..%s", day, cross, n, amount, igst,
				fromMS(first).Format("15:04"), fromMS(last).Format("15:04")))
		}
		return strings.Join(out, "; ")
	}
	// 31 Mar 23:59 IST and 1 Apr 00:01 IST are both 31 March in UTC.
	add("p1", "US", Reconciled, 102731, time.Date(2026, 3, 31, 23, 59, 0, 0, india.IST)) // IGST 18,491.58 → 18,492
	add("p2", "US", Reconciled, 1665083, time.Date(2026, 4, 1, 0, 1, 0, 0, india.IST))   // IGST 2,99,714.94 → 2,99,715
	add("p3", "", Reconciled, 25, time.Date(2026, 4, 1, 0, 2, 0, 0, india.IST))          // domestic
	add("p4", "IN", PendingReconciliation, 500, time.Date(2026, 4, 1, 9, 0, 0, 0, india.IST))
	refresh(t, db, "usr_r") // first refresh: full rebuild
	want := "2026-03-31 true n=1 inr=102731 igst=18492 18:29..18:29; " +
		"2026-04-01 false n=1 inr=25 igst=5 18:32..18:32; 2026-04-01 true n=1 inr=1665083 igst=299715 18:31..18:31"
	is.Equal(days(), want)

	// A payout reconciled as it settles is in its day when its
	// transaction commits; recording it again adds nothing.
	settled := time.Date(2026, 4, 1, 10, 0, 0, 0, india.IST)
	add("p5", "GB", PendingReconciliation, 100, settled) // the payment row; its record is replaced below
	_, err := db.x.Writer().Exec("DELETE FROM reconciliations WHERE payment_id = 'p5'")
	is.NoErr(err)
	for _, wantInserted := range []bool{true, false} {
		is.NoErr(db.WithTx(ctx, func(tx *Tx) error {
			inr := int64(100)
			inserted, err := tx.recordReconciliation(Reconciliation{PaymentID: "p5", UserID: "usr_r", Status: Reconciled,
				AmountINR: 100, SettledAt: settled}, Payment{ID: "p5", UserID: "usr_r", CounterpartyCountry: "GB", Currency: "USD",
				Amount: 1, SettlementRate: "100", AmountINR: &inr, SettledAt: &settled},
				GSTValue{CrossBorder: true, Day: "2026-04-01", Currency: "USD", InvoiceAmount: 1, Rate: "100", RateAsOf: settled,
					RateDate: "2026-04-01", RateBasis: "settlement", ValueINR: 100},
				Rate{Currency: "USD", Rate: "100", AsOf: settled})
			if err == nil && inserted != wantInserted {
				err = fmt.Errorf("inserted %v, want %v", inserted, wantInserted)
			}
			return err
		}))
	}
	withP5 := "2026-03-31 true n=1 inr=102731 igst=18492 18:29..18:29; " +
		"2026-04-01 false n=1 inr=25 igst=5 18:32..18:32; 2026-04-01 true n=2 inr=1665183 igst=299733 18:31..04:30"
	is.Equal(days(), withP5)

	// A resolved one waits in the queue for the next refresh.
	_, err = db.x.Writer().Exec("UPDATE reconciliations SET status = 'RECONCILED' WHERE payment_id = 'p4'")
	is.NoErr(err)
	var pending int
	is.NoErr(db.r.QueryRow("SELECT count(*) FROM tax_pending WHERE user_id = 'usr_r'").Scan(&pending))
	is.Equal(pending, 1)
	is.Equal(days(), withP5)
	refresh(t, db, "usr_r")
	want = "2026-03-31 true n=1 inr=102731 igst=18492 18:29..18:29; " +
		"2026-04-01 false n=2 inr=525 igst=95 18:32..03:30; 2026-04-01 true n=2 inr=1665183 igst=299733 18:31..04:30"
	is.Equal(days(), want)
	// The same figures as a rebuild from scratch.
	_, err = db.x.Writer().Exec("DELETE FROM tax_refresh_state WHERE user_id = 'usr_r'")
	is.NoErr(err)
	refresh(t, db, "usr_r")
	is.Equal(days(), want)
	refresh(t, db, "usr_r") // nothing queued: no change
	is.Equal(days(), want)

	// An out-of-band edit of a reconciled row forces a rebuild.
	_, err = db.x.Writer().Exec("UPDATE reconciliations SET amount_inr = 200 WHERE payment_id = 'p5'")
	is.NoErr(err)
	refresh(t, db, "usr_r")
	is.Equal(days(), strings.Replace(want, "n=2 inr=1665183 igst=299733", "n=2 inr=1665283 igst=299751", 1))
}

func TestPurposeFor(t *testing.T) {
	is := is.New(t)
	code, d := purposeFor("P0802")
	is.Equal(code, "P0802")
	is.Equal(d, "Software consultancy/implementation (other than those covered in SOFTEX form)")
	code, d = purposeFor("")
	is.Equal(code, "P1099")
	is.Equal(d, "Other services not included elsewhere")
	code, d = purposeFor("P9999")
	is.Equal(code, "P9999")
	is.True(strings.HasPrefix(d, "Unlisted purpose code P9999"))
}

// TestUnreconciledUsesPartialIndex: counting a year's pending receipts reads
// the partial index alone, whatever the reconciled history.
func TestUnreconciledUsesPartialIndex(t *testing.T) {
	db := openTaxDB(t)
	for _, q := range []string{
		`SELECT count(*), coalesce(sum(amount_inr), 0) FROM reconciliations
			WHERE user_id = ? AND ` + pendingOnly + ` AND settled_at >= ? AND settled_at < ?`,
		`SELECT payment_id FROM reconciliations WHERE user_id = ? AND ` + pendingOnly + `
			AND settled_at >= ? AND settled_at < ? ORDER BY settled_at, payment_id LIMIT 20`,
	} {
		plan := explain(t, db, q, "u", 0, 1)
		if !strings.Contains(plan, "USING COVERING INDEX reconciliations_pending") || strings.Contains(plan, "TEMP B-TREE") {
			t.Errorf("plan:\n%s", plan)
		}
	}
}
