package store

import (
	"context"
	"fmt"
	"testing"

	"github.com/matryer/is"
)

// TestSearchIndexStaysMerged: with FTS5's own merging off (schema.sql),
// the merges each batch makes keep the search index in few segments; left
// unmerged, 200 batches would leave it in about twenty, every search
// reading each of them.
func TestSearchIndexStaysMerged(t *testing.T) {
	is := is.New(t)
	db, sealer := openTestDB(t)
	u := testUser(t, db, sealer)
	var automerge int
	is.NoErr(db.r.QueryRow("SELECT v FROM payment_search_config WHERE k = 'automerge'").Scan(&automerge))
	is.Equal(automerge, 0) // FTS5 does not merge inside a COMMIT
	for b := range 200 {
		createPayouts(t, db, u.ID, 5, func(i int, p *Payment) {
			p.TxnID, p.CounterpartyName, p.InvoiceRef = fmt.Sprint(b, "-", i), fmt.Sprint("Client ", b%7), fmt.Sprint("INV-", b, "-", i)
		})
	}
	var structure []byte
	is.NoErr(db.r.QueryRowContext(context.Background(), "SELECT block FROM payment_search_data WHERE id = 10").Scan(&structure))
	segments := searchSegments(t, structure)
	is.True(segments <= 10) // a level is merged once it holds four
	got, _ := listAll(t, db, PaymentFilter{UserID: u.ID, Search: "INV-17-"}, true)
	is.Equal(len(got), 5)
}

// searchSegments reads the number of segments from an FTS5 structure
// record: a 4-byte cookie, an optional 5-byte version marker, then the
// number of levels and of segments as SQLite varints.
func searchSegments(t *testing.T, rec []byte) int {
	t.Helper()
	i := 4
	if len(rec) >= 9 && string(rec[4:9]) == "\xff\x00\x00\x00\x00" {
		i += 5
	}
	var fields [2]uint64
	for f := range fields {
		for {
			if i >= len(rec) {
				t.Fatalf("structure record of %d bytes ends in a varint", len(rec))
			}
			c := rec[i]
			i++
			fields[f] = fields[f]<<7 | uint64(c&0x7f)
			if c < 0x80 {
				break
			}
		}
	}
	return int(fields[1])
}
