package stellartest

import (
	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
)

// Submit sends a transaction as another wallet holding an account's key
// would, with every check a send gets, and returns the send's status
// (PENDING once applied, ERROR when refused).
func (s *Server) Submit(envelopeXDR string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	resp, _, _ := s.send(envelopeXDR)
	if r, ok := resp.(protocol.SendTransactionResponse); ok {
		return r.Status
	}
	return "ERROR"
}

// Sequence is the account's last used sequence number.
func (s *Server) Sequence(address string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a := s.accounts[address]; a != nil {
		return a.seq
	}
	return 0
}

// Archive starts, once, an RPC endpoint on the same network that keeps
// every ledger ever closed, as an RPC provider with full history does, and
// returns its URL: getTransaction, getTransactions and getEvents there
// still find what Prune made this server forget, and its oldest ledger is
// 1. Every other method answers as here; sends are relayed.
func (s *Server) Archive() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.archive == nil {
		s.archive = &endpoint{full: true, latest: func() uint32 { return s.ledger }}
		s.start(s.archive)
	}
	return s.archive.http.URL
}
