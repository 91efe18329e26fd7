package server

import (
	"github.com/payoutd/payoutd/jobs"
	"github.com/payoutd/payoutd/store"
)

// afterReconciled queues the tax refresh that every reconciliation triggers.
func (s *Server) afterReconciled(tx *store.Tx, userID string) error {
	return jobs.EnqueueTaxRefresh(tx, userID)
}
