package store

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/matryer/is"
)

// TestLogRowsWrittenAtTheEnd: audit rows and events made in a transaction
// are inserted when it ends, several per statement, in the order they were
// made; the chain stays intact; a transaction that fails leaves none.
func TestLogRowsWrittenAtTheEnd(t *testing.T) {
	is := is.New(t)
	db, _ := openTestDB(t)
	ctx := context.Background()
	const n = 2*maxRowsPerInsert + 3 // full statements and a remainder
	write := func(fail error) error {
		return db.WithTx(ctx, func(tx *Tx) error {
			for i := range n {
				if err := tx.Audit("usr_log", false, "test.step", "test", fmt.Sprint(i), map[string]int{"i": i}); err != nil {
					return err
				}
				if err := tx.emit("usr_log", false, "test.step", fmt.Sprint(i), map[string]int{"i": i}); err != nil {
					return err
				}
			}
			return fail
		})
	}
	boom := errors.New("boom")
	is.True(errors.Is(write(boom), boom))
	is.NoErr(write(nil))
	is.True(errors.Is(write(boom), boom))
	is.NoErr(write(nil))

	order := func(q string) []string {
		rows, err := db.r.Query(q)
		is.NoErr(err)
		defer rows.Close()
		var out []string
		for rows.Next() {
			var s string
			is.NoErr(rows.Scan(&s))
			out = append(out, s)
		}
		return out
	}
	var want []string
	for range 2 {
		for i := range n {
			want = append(want, fmt.Sprint(i))
		}
	}
	is.Equal(order("SELECT resource_id FROM audit_log WHERE user_id = 'usr_log' ORDER BY seq"), want)
	is.Equal(order("SELECT resource_id FROM events WHERE user_id = 'usr_log' ORDER BY rowid"), want)
	v, err := db.History().VerifyAudit(ctx)
	is.NoErr(err)
	is.True(v.Intact)
	is.Equal(v.Rows, int64(2*n))
}
