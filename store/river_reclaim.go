package store

import "context"

// ReclaimOrphanedJobs makes jobs that were running when the previous server
// process died available again at once. It is only safe while this process
// holds the database's serve lock (one server per file), which is why serve
// calls it right after taking the lock and before River starts. Without it a
// job killed mid-run waits for River's rescuer (an hour by default).
func (db *DB) ReclaimOrphanedJobs(ctx context.Context) (int64, error) {
	var n int64
	err := db.WithTx(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE river_job SET state = 'available', scheduled_at = datetime('now', 'subsec')
			WHERE state = 'running'`)
		if err == nil {
			n, err = res.RowsAffected()
		}
		return err
	})
	return n, err
}
