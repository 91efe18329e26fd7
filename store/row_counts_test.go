package store

import (
	"context"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

// seedListRows writes n audit rows, events and FIRAs of one user straight
// in SQL (and, with counted, their row_counts as the store keeps them):
// actions and event types alternate between two kinds, times one second
// apart from 2026-04-01.
func seedListRows(tb testing.TB, db *DB, userID string, n int, counted bool) {
	tb.Helper()
	ctx := context.Background()
	start := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	const batch = 2000
	for lo := 0; lo < n; lo += batch {
		err := db.WithTx(ctx, func(tx *Tx) error {
			var seq int64
			if err := tx.queryRow("SELECT coalesce(max(seq), 0) FROM audit_log").Scan(&seq); err != nil {
				return err
			}
			for i := lo; i < min(lo+batch, n); i++ {
				at := ms(start.Add(time.Duration(i) * time.Second))
				kind := []string{"payment.completed", "fira.generated"}[i%2]
				seq++
				if _, err := tx.exec(`INSERT INTO audit_log (seq, at, user_id, actor, action, resource_type, resource_id,
					prev_hash, hash) VALUES (?, ?, ?, 'system', ?, 'payment', ?, '', '')`, seq, at, userID, kind, "pay_"+strconv.Itoa(i)); err != nil {
					return err
				}
				if _, err := tx.exec(`INSERT INTO events (id, user_id, livemode, type, resource_id, data, created_at)
					VALUES (?, ?, 0, ?, ?, '{}', ?)`, NewID("evt"), userID, kind, "pay_"+strconv.Itoa(i), at); err != nil {
					return err
				}
				if _, err := tx.exec(`INSERT INTO firas (id, payment_id, user_id, livemode, status, remitting_bank,
					remitting_country, amount_foreign, foreign_currency, amount_inr, settlement_rate, purpose_code,
					purpose_description, invoice_ref, settlement_ref, settled_at, generated_at)
					VALUES (?, ?, ?, 0, 'GENERATED', 'Bank', 'US', 100, 'USD', 8333, '83.33', 'P0802', 'Software', '', '', ?, ?)`,
					NewID("fira"), userUniquePayment(userID, i), userID, at, at); err != nil {
					return err
				}
				if counted {
					tx.countRow(userID, kindAudit, kind)
					tx.countRow(userID, kindEvents, kind)
					tx.countRow(userID, kindFIRAs, "")
				}
			}
			return nil
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
}

func userUniquePayment(userID string, i int) string { return userID + "_pay_" + strconv.Itoa(i) }

// listTotals reads each list's total, unfiltered and filtered.
func listTotals(tb testing.TB, db *DB, userID string) map[string]int {
	tb.Helper()
	ctx := context.Background()
	from, to := time.Date(2026, 4, 1, 0, 0, 10, 0, time.UTC), time.Date(2026, 4, 1, 0, 0, 19, 0, time.UTC)
	out := map[string]int{}
	add := func(name string, total int, err error) {
		if err != nil {
			tb.Fatal(err)
		}
		out[name] = total
	}
	_, n, err := db.History().ListAudit(ctx, AuditFilter{UserID: userID, Page: 1, Limit: 10})
	add("audit", n, err)
	_, n, err = db.History().ListAudit(ctx, AuditFilter{UserID: userID, Action: "fira.generated", Page: 1, Limit: 10})
	add("audit action", n, err)
	_, n, err = db.History().ListAudit(ctx, AuditFilter{UserID: userID, From: from, To: to, Page: 1, Limit: 10})
	add("audit from-to", n, err)
	_, n, err = db.History().ListAudit(ctx, AuditFilter{UserID: userID, ResourceID: "pay_3", Page: 1, Limit: 10})
	add("audit resource", n, err)
	_, n, err = db.History().EventLog(ctx, EventFilter{UserID: userID, Page: 1, Limit: 10})
	add("events", n, err)
	_, n, err = db.History().EventLog(ctx, EventFilter{UserID: userID, Type: "payment.completed", Page: 1, Limit: 10})
	add("events type", n, err)
	_, n, err = db.Tax().ListFIRAs(ctx, FIRAFilter{UserID: userID, Page: 1, Limit: 10})
	add("firas", n, err)
	_, n, err = db.Tax().ListFIRAs(ctx, FIRAFilter{UserID: userID, From: from, To: to, Page: 1, Limit: 10})
	add("firas from-to", n, err)
	return out
}

// TestListTotals: the audit, event and FIRA lists answer their totals from
// maintained counts, and those equal the rows, filtered or not; a
// version-3 file gets its counts from its rows when opened, and payoutd
// check compares the two.
func TestListTotals(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	want := map[string]int{"audit": 25, "audit action": 12, "audit from-to": 10, "audit resource": 1,
		"events": 25, "events type": 13, "firas": 25, "firas from-to": 10}

	db, _ := openTestDB(t)
	seedListRows(t, db, "usr_lists", 25, true)
	is.Equal(listTotals(t, db, "usr_lists"), want)
	// (The seeded audit rows are not hash-chained: check's other findings
	// are not this test's.)
	countProblems := func() (out []string) {
		problems, err := db.Health().Check(ctx)
		is.NoErr(err)
		for _, p := range problems {
			if strings.HasPrefix(p, "list count ") {
				out = append(out, p)
			}
		}
		return out
	}
	is.Equal(countProblems(), []string(nil))
	// A count that drifts from its rows is a problem check reports.
	_, err := db.x.Writer().Exec("UPDATE row_counts SET n = n + 1 WHERE user_id = 'usr_lists' AND kind = 'firas'")
	is.NoErr(err)
	is.Equal(countProblems(), []string{"list count usr_lists firas: 26 recorded but 25 rows"})
	_, n, err := db.Tax().ListFIRAs(ctx, FIRAFilter{UserID: "usr_lists", Page: 1, Limit: 10})
	is.NoErr(err)
	is.Equal(n, 26) // the list's total is the maintained count, not a count of the rows

	// A version-3 file: the same rows, no counts.
	path := filepath.Join(t.TempDir(), "v3.db")
	schema := todaysSchema(t)
	v3, err := Open(ctx, path, schema)
	is.NoErr(err)
	withoutRiver(v3)
	seedListRows(t, v3, "usr_lists", 25, false)
	_, err = v3.x.Writer().Exec("DROP TABLE row_counts; PRAGMA user_version = 3")
	is.NoErr(err)
	is.NoErr(v3.Close())
	v4, err := Open(ctx, path, schema)
	is.NoErr(err)
	withoutRiver(v4)
	defer v4.Close()
	is.Equal(listTotals(t, v4, "usr_lists"), want)
}

// TestListTotalsAtScale times the three lists' first page with their
// totals. Set PAYOUTD_LIST_SCALE=1000000 to measure at a million rows each
// (docs/performance.md); the default size only exercises it.
func TestListTotalsAtScale(t *testing.T) {
	n := scale(t, "PAYOUTD_LIST_SCALE", 2000)
	is := is.New(t)
	ctx := context.Background()
	db, _ := openTestDB(t)
	t0 := time.Now()
	seedListRows(t, db, "usr_scale", n, true)
	t.Logf("seeded %d audit rows, events and FIRAs in %s", n, time.Since(t0).Round(time.Millisecond))
	for _, l := range []struct {
		name string
		read func() (int, error)
	}{
		{"audit", func() (int, error) {
			_, n, err := db.History().ListAudit(ctx, AuditFilter{UserID: "usr_scale", Page: 1, Limit: 25})
			return n, err
		}},
		{"audit?action", func() (int, error) {
			_, n, err := db.History().ListAudit(ctx, AuditFilter{UserID: "usr_scale", Action: "fira.generated", Page: 1, Limit: 25})
			return n, err
		}},
		{"events", func() (int, error) {
			_, n, err := db.History().EventLog(ctx, EventFilter{UserID: "usr_scale", Page: 1, Limit: 25})
			return n, err
		}},
		{"events?type", func() (int, error) {
			_, n, err := db.History().EventLog(ctx, EventFilter{UserID: "usr_scale", Type: "payment.completed", Page: 1, Limit: 25})
			return n, err
		}},
		{"firas", func() (int, error) {
			_, n, err := db.Tax().ListFIRAs(ctx, FIRAFilter{UserID: "usr_scale", Page: 1, Limit: 25})
			return n, err
		}},
	} {
		lat := make([]time.Duration, 0, 200)
		for range timings("PAYOUTD_LIST_SCALE") {
			t0 := time.Now()
			total, err := l.read()
			lat = append(lat, time.Since(t0))
			is.NoErr(err)
			is.True(total >= n/2) // the whole list, or half of it by action or type
		}
		sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
		t.Logf("%s at %d rows: p50 %s p99 %s", l.name, n, lat[len(lat)/2], lat[len(lat)*99/100])
	}
}
