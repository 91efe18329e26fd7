package sqlitex

import (
	"context"
	"crypto/rand"
	"fmt"
	"testing"
)

// BenchmarkCommitWithSplits times one commit of 13 rows under a random
// index (a payout's b-tree pages split as they fill) on a file larger than
// either page cache, with the writer's cache and with four times it: the
// reason writerCacheKiB is small (docs/decisions.md, Storage).
func BenchmarkCommitWithSplits(b *testing.B) {
	for _, kib := range []int{-writerCacheKiB, -4 * writerCacheKiB} {
		b.Run(fmt.Sprintf("cache=%dMiB", kib/1024), func(b *testing.B) {
			db := openTest(b)
			ctx := context.Background()
			// insert commits n rows of random 78-character text.
			insert := func(n int) {
				err := db.WithTx(ctx, func(tx *Tx) error {
					for range n {
						if _, err := tx.ExecContext(tx.Context(), "INSERT INTO k VALUES (?)", rand.Text()+rand.Text()+rand.Text()); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			err := db.WithTx(ctx, func(tx *Tx) error {
				for _, q := range []string{fmt.Sprintf("PRAGMA cache_size = -%d", kib), "CREATE TABLE k (v TEXT NOT NULL)", "CREATE INDEX k_v ON k (v)"} {
					if _, err := tx.ExecContext(tx.Context(), q); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			for range 200 { // ~70 MB: more pages than either cache holds
				insert(2000)
			}
			b.ResetTimer()
			for b.Loop() {
				insert(13)
			}
		})
	}
}
