package bench

import (
	"context"
	"time"

	"github.com/payoutd/payoutd/store"
)

// StorageResult is the physical limit of the database file with the
// server's own pragmas and commit path: WAL, and each commit durable (its
// WAL fsync done) before it returns.
type StorageResult struct {
	CommitsPerS float64 `json:"commits_per_s"`
	RowsPerS    float64 `json:"rows_per_s"`
}

func measureStorage(ctx context.Context, path, schema string, d time.Duration) (StorageResult, error) {
	db, err := store.Open(ctx, path, schema)
	if err != nil {
		return StorageResult{}, err
	}
	defer db.Close()
	if err := db.Bench().CreateScratchTable(ctx); err != nil {
		return StorageResult{}, err
	}
	var r StorageResult
	// One durable single-row commit at a time: the ceiling for any design
	// that commits once per request.
	n, start := 0, time.Now()
	for time.Since(start) < d/2 {
		if err := db.Bench().WriteScratchRows(ctx, 1); err != nil {
			return r, err
		}
		n++
	}
	r.CommitsPerS = float64(n) / time.Since(start).Seconds()
	// Batched: 1,000 rows per transaction.
	rows, start := 0, time.Now()
	for time.Since(start) < d/2 {
		if err := db.Bench().WriteScratchRows(ctx, 1000); err != nil {
			return r, err
		}
		rows += 1000
	}
	r.RowsPerS = float64(rows) / time.Since(start).Seconds()
	return r, nil
}
