package sqlitex

import (
	"context"
	"database/sql/driver"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestStatementCacheKeepsQueriesCorrect: a cached statement reused while its
// own rows are still open, after a schema change, and past the cache's bound
// still answers as an unprepared query would.
func TestStatementCacheKeepsQueriesCorrect(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	err := db.WithTx(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)"); err != nil {
			return err
		}
		for i := 1; i <= 3; i++ {
			if _, err := tx.ExecContext(ctx, "INSERT INTO t (id, v) VALUES (?, ?)", i, fmt.Sprint("v", i)); err != nil {
				return err
			}
		}
		// The same query again while its first rows are open: the second
		// use must not reset the first cursor.
		const q = "SELECT id FROM t WHERE id >= ? ORDER BY id"
		outer, err := tx.QueryContext(ctx, q, 1)
		if err != nil {
			return err
		}
		defer outer.Close()
		var seen []int
		for outer.Next() {
			var id, inner int
			if err := outer.Scan(&id); err != nil {
				return err
			}
			if err := tx.QueryRowContext(ctx, q, 3).Scan(&inner); err != nil {
				return err
			}
			if inner != 3 {
				return fmt.Errorf("inner query read %d, want 3", inner)
			}
			seen = append(seen, id)
		}
		if fmt.Sprint(seen) != "[1 2 3]" {
			return fmt.Errorf("outer query read %v, want [1 2 3]", seen)
		}
		// A cached statement sees a column added after it was prepared.
		if _, err := tx.ExecContext(ctx, "ALTER TABLE t ADD COLUMN w TEXT NOT NULL DEFAULT 'x'"); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM t WHERE id >= ?", 1).Scan(&n); err != nil || n != 3 {
			return fmt.Errorf("count = %d, %v", n, err)
		}
		// More distinct queries than the cache holds all still run.
		for i := 0; i < maxCachedStmts+10; i++ {
			var got int
			if err := tx.QueryRowContext(ctx, fmt.Sprintf("SELECT %d + id FROM t WHERE id = 1", i)).Scan(&got); err != nil || got != i+1 {
				return fmt.Errorf("query %d: got %d, %v", i, got, err)
			}
		}
		// A bad query is an error, not a cached statement.
		if _, err := tx.ExecContext(ctx, "INSERT INTO missing VALUES (1)"); err == nil {
			return fmt.Errorf("insert into a missing table succeeded")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRiverFetchKeepsOneStatementPerLimit: River's fetch binds each queue's
// free worker slots to LIMIT, and SQLite re-prepares a statement whenever a
// LIMIT's bound value changes; the cache keeps one statement per value, so
// two queues polling in turn reuse theirs instead of parsing again. The
// cache knows River's fetch by its name alone, so a table of the test's
// own stands in for River's.
func TestRiverFetchKeepsOneStatementPerLimit(t *testing.T) {
	db := openTest(t)
	ctx := context.Background()
	if err := db.WithTx(ctx, func(tx *Tx) error {
		_, err := tx.ExecContext(ctx, "CREATE TABLE queued (id INTEGER PRIMARY KEY, queue TEXT, scheduled_at TEXT)")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	const fetch = riverFetch + "\nSELECT id FROM queued WHERE queue = ?2 AND scheduled_at <= ?1 LIMIT ?3"
	for i := range 6 {
		limit := []int64{100, 8}[i%2]
		rows, err := db.w.QueryContext(ctx, fetch, fmt.Sprint("2026-11-22 01:00:0", i), "q", limit)
		if err != nil {
			t.Fatal(err)
		}
		rows.Close()
	}
	conn, err := db.w.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var variants []string
	err = conn.Raw(func(dc any) error {
		for key := range dc.(*cachingConn).stmts {
			if q, v, ok := strings.Cut(key, "\x00"); ok && q == fetch {
				variants = append(variants, v)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(variants)
	if !slices.Equal(variants, []string{"100", "8"}) {
		t.Fatalf("cached fetch variants %q, want one per limit", variants)
	}
	if variantKey("SELECT 1 LIMIT ?3", []driver.NamedValue{{Ordinal: 3, Value: int64(5)}}) != "" {
		t.Fatal("only River's fetch gets variants")
	}
}
