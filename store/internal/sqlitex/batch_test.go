package sqlitex

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/payoutd/payoutd/internal/wait"
)

// TestBatchLingersForTheCallersOfTheLastOne: after a batch of eight, a
// caller arriving alone waits (up to lingerFor) for the batch to reach
// four, so the callers answered together and coming back together share
// one commit instead of the first paying for one of its own; and a caller
// nobody joins is still answered once lingerFor has passed.
func TestBatchLingersForTheCallersOfTheLastOne(t *testing.T) {
	db := openTest(t)
	createT(t, db)
	ctx := context.Background()
	insert := func(i int, tx *Tx) error { return insertT(tx, i) }
	db.group.lingerFor = time.Hour // only the four arriving can end the wait
	for _, err := range inOneBatch(t, db, 8, insert) {
		if err != nil {
			t.Fatal(err)
		}
	}
	before := db.Stats().Batches.Load()
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := db.WithTx(ctx, func(tx *Tx) error { return insert(100+i, tx) }); err != nil {
				t.Error(err)
			}
		}()
		if i == 0 { // the committer holds the first until the others come
			wait.Parked(t, 30*time.Second, 1, "select", "sqlitex.(*committer).gather")
		}
	}
	wg.Wait()
	if n := db.Stats().Batches.Load() - before; n != 1 {
		t.Errorf("four callers after a batch of eight took %d commits, want one", n)
	}

	db.group.lingerFor = time.Millisecond
	for _, err := range inOneBatch(t, db, 8, insert) {
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := db.WithTx(ctx, func(tx *Tx) error { return insert(200, tx) }); err != nil {
		t.Fatal(err)
	}
	if n := countT(t, db); n != 8+4+8+1 {
		t.Errorf("%d rows, want 21", n)
	}
}
