package store

// ReadyHook receives a payout that a committed transaction made ready for
// the pipeline (confirmed, retried, approved), so an in-process dispatcher
// can advance it at once instead of through a queued job. The payout's
// status is the durable record that it is ready; a hook that drops it only
// delays it until the next sweep.
type ReadyHook func(paymentID string)

// SetReadyHook installs (or, with nil, removes) the process's dispatcher.
func (db *DB) SetReadyHook(h ReadyHook) {
	if h == nil {
		db.ready.Store(nil)
		return
	}
	db.ready.Store(&h)
}

// Ready hands paymentID to the dispatcher once this transaction commits and
// reports true; false when this process runs no dispatcher (a CLI, or a
// server without workers), and the caller must queue a job instead.
func (tx *Tx) Ready(paymentID string) bool {
	if tx.ready == nil {
		return false
	}
	h := *tx.ready
	tx.OnCommit(func() { h(paymentID) })
	return true
}
