package store

import (
	"context"
	"fmt"

	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"
)

// SchemaVersion is the version an up-to-date file carries in PRAGMA user_version.
const SchemaVersion = 1

// migration changes an existing file from version-1 to version. schema.sql
// always describes the newest schema with IF NOT EXISTS everywhere, so new
// tables and indexes need no step here; a step is for what schema.sql cannot
// express idempotently (new columns, backfills).
type migration struct {
	version int
	apply   func(ctx context.Context, tx *Tx) error
}

var migrations = []migration{}

func (db *DB) migrate(ctx context.Context, schema string) error {
	var version int
	if err := db.W.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if version > SchemaVersion {
		return fmt.Errorf("database schema version %d is newer than this binary (%d)", version, SchemaVersion)
	}
	err := db.WithTx(ctx, func(tx *Tx) error {
		for _, m := range migrations {
			if m.version > version {
				if err := m.apply(ctx, tx); err != nil {
					return fmt.Errorf("migration %d: %w", m.version, err)
				}
			}
		}
		if _, err := tx.ExecContext(ctx, schema); err != nil {
			return fmt.Errorf("apply schema.sql: %w", err)
		}
		_, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion))
		return err
	})
	if err != nil {
		return err
	}
	migrator, err := rivermigrate.New(riversqlite.New(db.W), nil)
	if err != nil {
		return err
	}
	if _, err := migrator.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("river migrations: %w", err)
	}
	return nil
}
