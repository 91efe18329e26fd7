package sqlitex

import (
	"context"
	"database/sql"
	"errors"
	"testing"
	"time"

	"github.com/matryer/is"
)

// TestDirectExec: the committer's statements skip database/sql, yet store
// what database/sql would for every argument type, fall back to it for the
// types they do not know, and a transaction kept past its function cannot
// write outside its batch.
func TestDirectExec(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	db := openTest(t)
	for _, table := range []string{"direct", "viasql"} {
		_, err := db.w.Exec("CREATE TABLE " + table + " (i INTEGER, n INTEGER, f REAL, b INTEGER, s TEXT, raw BLOB, at TEXT, ns TEXT)")
		is.NoErr(err)
	}
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	argRows := [][]any{
		{int64(7), 8, 1.5, true, "text", []byte{0, 1}, at, sql.NullString{String: "valuer", Valid: true}}, // the last falls back
		{int64(-1), nil, 0.0, false, "", []byte{}, at, sql.NullString{}},
	}
	var kept *Tx
	is.NoErr(db.WithTx(ctx, func(tx *Tx) error {
		if tx.direct.conn == nil {
			return errors.New("the committer did not find its connection")
		}
		kept = tx
		for _, args := range argRows {
			if _, err := tx.ExecContext(ctx, "INSERT INTO direct VALUES (?, ?, ?, ?, ?, ?, ?, ?)", args...); err != nil {
				return err
			}
		}
		res, err := tx.ExecContext(ctx, "UPDATE direct SET s = s || ? WHERE i > ?", "!", 0)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return errors.New("rows affected")
		}
		return nil
	}))
	for _, args := range argRows {
		_, err := db.w.Exec("INSERT INTO viasql VALUES (?, ?, ?, ?, ?, ?, ?, ?)", args...)
		is.NoErr(err)
	}
	_, err := db.w.Exec("UPDATE viasql SET s = s || ? WHERE i > ?", "!", 0)
	is.NoErr(err)
	dump := func(table string) string {
		var out string
		is.NoErr(db.r.QueryRow(`SELECT group_concat(quote(i) || ',' || quote(n) || ',' || quote(f) || ',' || quote(b) || ',' ||
			quote(s) || ',' || quote(raw) || ',' || quote(at) || ',' || quote(ns), ' | ') FROM ` + table).Scan(&out))
		return out
	}
	is.Equal(dump("direct"), dump("viasql"))
	t.Log(dump("direct"))

	_, err = kept.ExecContext(ctx, "INSERT INTO direct (i) VALUES (1)")
	is.True(errors.Is(err, sql.ErrTxDone))
	var n int
	is.NoErr(db.r.QueryRow("SELECT count(*) FROM direct").Scan(&n))
	is.Equal(n, len(argRows))
}
