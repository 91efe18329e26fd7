package store

import (
	"context"
	"time"
)

// WriteHealth is what the last writes did: when one last became durable
// (Landed) and when one last failed because the file or the disk refused
// it (Failed, with Err and Reason, a few words without paths: read-only,
// I/O error, full). A transaction that failed on its own account (a
// constraint, a rule) is neither.
type WriteHealth struct {
	Landed, Failed time.Time
	Err            error
	Reason         string
}

// WriteHealth reports the committer's last durable write and last storage
// failure, each zero until one happens.
func (g Health) WriteHealth() WriteHealth {
	db := g.db
	h := db.x.WriteHealth()
	return WriteHealth{Landed: h.Landed, Failed: h.Failed, Err: h.Err, Reason: h.Reason}
}

// Heartbeat commits one tiny row through the group committer, as durably
// as any payout: it lands only while the file and the disk take writes.
func (g Health) Heartbeat(ctx context.Context) error {
	db := g.db
	return db.WithTx(ctx, func(tx *Tx) error {
		_, err := tx.exec(`INSERT INTO storage_probe (id, at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET at = excluded.at`, ms(tx.now))
		return err
	})
}
