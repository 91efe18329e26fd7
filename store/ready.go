package store

// ReadyHook receives a payout that a committed transaction made ready for
// the pipeline (confirmed, retried, approved), as that transaction left it,
// so an in-process dispatcher can advance it at once instead of through a
// queued job, without reading it back. The payout's status is the durable
// record that it is ready; a hook that drops it only delays it until the
// next sweep.
type ReadyHook func(p Payment)

// SetReadyHook installs (or, with nil, removes) the process's dispatcher.
func (db *DB) SetReadyHook(h ReadyHook) {
	if h == nil {
		db.ready.Store(nil)
		return
	}
	db.ready.Store(&h)
}

// Ready hands p, in its final state in this transaction, to the dispatcher
// once the transaction commits and reports true; false when this process
// runs no dispatcher (a CLI, or a server without workers), and the caller
// must queue a job instead. Whatever moves the payout after the commit
// changes its status, and the dispatcher's transaction then fails its
// status guard and leaves the payout to a job that reads it afresh.
func (tx *Tx) Ready(p Payment) bool {
	if tx.ready == nil {
		return false
	}
	h := *tx.ready
	tx.OnCommit(func() { h(p) })
	return true
}
