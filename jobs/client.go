package jobs

import (
	"database/sql"
	"log/slog"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riversqlite"

	"github.com/payoutd/payoutd/store"
)

// ClientConfig tunes River for SQLite.
type ClientConfig struct {
	Workers int // concurrent jobs; 0 makes an insert-only client (CLI)
	Logger  *slog.Logger
}

// NewClient builds the River client on the store's single write connection.
// PollOnly because SQLite has no LISTEN/NOTIFY; the short poll interval and
// cooldown are what make River fast on SQLite (DESIGN.md §1).
func NewClient(db *store.DB, pl *Pipeline, cfg ClientConfig) (*river.Client[*sql.Tx], error) {
	workers := river.NewWorkers()
	river.AddWorker(workers, &ComplianceWorker{P: pl})
	river.AddWorker(workers, &SubmitWorker{P: pl})
	river.AddWorker(workers, &ResolveUnknownWorker{P: pl})
	river.AddWorker(workers, &PostSettlementWorker{P: pl})
	river.AddWorker(workers, &TaxRefreshWorker{P: pl})
	logger := cfg.Logger
	if logger == nil {
		logger = slog.Default()
	}
	rc := &river.Config{
		Workers:                     workers,
		PollOnly:                    true,
		FetchPollInterval:           50 * time.Millisecond,
		FetchCooldown:               time.Millisecond,
		CompletedJobRetentionPeriod: time.Hour,
		JobTimeout:                  time.Minute,
		RescueStuckJobsAfter:        2 * time.Minute,
		Logger:                      logger,
	}
	if cfg.Workers > 0 {
		rc.Queues = map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: cfg.Workers}}
	}
	client, err := river.NewClient(riversqlite.New(db.W), rc)
	if err != nil {
		return nil, err
	}
	db.SetInserter(client)
	return client, nil
}
