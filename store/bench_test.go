package store

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// Benchmarks of the store's hot paths. They use a real SQLite file with the
// server's pragmas; numbers are in docs/performance.md.

func BenchmarkFindAPIKeyBySecret(b *testing.B) {
	db, sealer := openTestDB(b)

	ctx := context.Background()
	var secret string
	err := db.WithTx(ctx, func(tx *Tx) error {
		u, _, err := tx.People().EnsureUser("bench@example.com", false, "B", sealer)
		if err != nil {
			return err
		}
		for i := 0; i < 1000; i++ { // a realistic number of other keys
			if _, _, err := tx.Keys().CreateAPIKey(u, fmt.Sprint(i), AllScopes); err != nil {
				return err
			}
		}
		_, secret, err = tx.Keys().CreateAPIKey(u, "hot", AllScopes)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := db.Keys().FindAPIKeyBySecret(ctx, secret); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFindIdempotent looks up stored responses by the key's own
// primary key (Plain) and across rotated keys (Across), a hit and a miss
// (a new request's key) each.
func BenchmarkFindIdempotent(b *testing.B) {
	db, _ := openTestDB(b)

	ctx := context.Background()
	err := db.WithTx(ctx, func(tx *Tx) error {
		for i := 0; i < 10000; i++ {
			if err := tx.Payments().SaveIdempotent("key_1", fmt.Sprintf("00000000-0000-0000-0000-%012d", i),
				IdempotentResponse{RequestHash: []byte("h"), Status: 201, Body: []byte(`{"id":"pay_x"}`)}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		find func(context.Context, string, string) (IdempotentResponse, bool, error)
	}{{"Plain", db.Payments().FindIdempotent}, {"Across", db.Payments().FindIdempotentAcross}} {
		for _, hit := range []bool{true, false} {
			b.Run(fmt.Sprintf("%s/hit=%v", c.name, hit), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					n := i % 10000
					if !hit {
						n += 10000
					}
					if _, found, err := c.find(ctx, "key_1", fmt.Sprintf("00000000-0000-0000-0000-%012d", n)); err != nil || found != hit {
						b.Fatal(err, found)
					}
				}
			})
		}
	}
}

// BenchmarkPostSettlement posts one settlement (vault debit, FX, INR credit)
// per iteration, each in its own durable transaction.
func BenchmarkPostSettlement(b *testing.B) {
	db, sealer := openTestDB(b)

	ctx := context.Background()
	var u User
	var v Vault
	err := db.WithTx(ctx, func(tx *Tx) (err error) {
		if u, _, err = tx.People().EnsureUser("ledger@example.com", false, "L", sealer); err != nil {
			return err
		}
		v, err = tx.Vaults().DefaultVault(u.ID)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		inr := int64(8325)
		now := time.Now()
		p := Payment{ID: NewID("pay"), UserID: u.ID, Currency: "USD", Amount: 100, VaultID: v.ID, AmountINR: &inr, SettledAt: &now, SettlementRate: "83.25"}
		if err := db.WithTx(ctx, func(tx *Tx) error { return tx.postSettlement(p) }); err != nil {
			b.Fatal(err)
		}
	}
}
