package stellartest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"

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
// every transaction ever applied, as an RPC provider with full history
// does, and returns its URL: getTransaction there still finds what Prune
// made this server forget. Every other method answers as here.
func (s *Server) Archive() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.archive == nil {
		s.archive = httptest.NewServer(http.HandlerFunc(s.serveArchive))
	}
	return s.archive.URL
}

func (s *Server) serveArchive(w http.ResponseWriter, r *http.Request) {
	var req rpcRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeRPC(w, nil, nil, &rpcError{Code: -32700, Message: "parse error"})
		return
	}
	if req.Method != protocol.GetTransactionMethodName {
		result, rerr, _ := s.call(req.Method, req.Params)
		writeRPC(w, req.ID, result, rerr)
		return
	}
	var q protocol.GetTransactionRequest
	if err := json.Unmarshal(req.Params, &q); err != nil {
		writeRPC(w, req.ID, nil, &rpcError{Code: -32602, Message: err.Error()})
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	resp := protocol.GetTransactionResponse{LatestLedger: s.ledger, LatestLedgerCloseTime: s.now.Unix(), OldestLedger: 1}
	resp.Status = protocol.TransactionStatusNotFound
	t := s.txs[q.Hash]
	if t == nil {
		t = s.forgotten[q.Hash]
	}
	if t != nil {
		resp.Status, resp.Ledger, resp.LedgerCloseTime = t.status, t.ledger, t.closedAt
		resp.EnvelopeXDR, resp.ResultXDR, resp.TransactionHash = t.envelope, t.result, q.Hash
	}
	writeRPC(w, req.ID, resp, nil)
}
