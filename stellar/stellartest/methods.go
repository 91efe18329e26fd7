package stellartest

import (
	"encoding/json"
	"fmt"
	"time"

	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// call answers one JSON-RPC method on ep, from what ep knows; lose asks
// the caller to drop the reply.
func (s *Server) call(ep *endpoint, method string, params json.RawMessage) (result any, e *rpcError, lose bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := s.view(ep)
	switch method {
	case protocol.GetHealthMethodName:
		return s.health(v)
	case protocol.GetNetworkMethodName:
		return protocol.GetNetworkResponse{Passphrase: s.Passphrase, ProtocolVersion: 23}, nil, false
	case protocol.GetLatestLedgerMethodName:
		return protocol.GetLatestLedgerResponse{Sequence: v.latest, LedgerCloseTime: v.latestAt, ProtocolVersion: 23}, nil, false
	case protocol.GetFeeStatsMethodName:
		return s.feeStats(v), nil, false
	case protocol.GetLedgerEntriesMethodName:
		var req protocol.GetLedgerEntriesRequest
		if err := json.Unmarshal(params, &req); err != nil {
			return nil, &rpcError{Code: -32602, Message: err.Error()}, false
		}
		return s.ledgerEntries(v, req)
	case protocol.GetTransactionMethodName:
		var req protocol.GetTransactionRequest
		if err := json.Unmarshal(params, &req); err != nil {
			return nil, &rpcError{Code: -32602, Message: err.Error()}, false
		}
		resp := protocol.GetTransactionResponse{LatestLedger: v.latest, LatestLedgerCloseTime: v.latestAt,
			OldestLedger: v.oldest, OldestLedgerCloseTime: v.oldestAt}
		resp.Status = protocol.TransactionStatusNotFound
		if t := s.txs[req.Hash]; t != nil && v.holds(t.ledger) {
			resp.Status, resp.Ledger, resp.LedgerCloseTime = t.status, t.ledger, t.closedAt
			resp.EnvelopeXDR, resp.ResultXDR, resp.TransactionHash = t.envelope, t.result, req.Hash
		}
		return resp, nil, false
	case protocol.GetTransactionsMethodName:
		var req protocol.GetTransactionsRequest
		if err := json.Unmarshal(params, &req); err != nil {
			return nil, &rpcError{Code: -32602, Message: err.Error()}, false
		}
		return s.transactions(v, req)
	case protocol.GetEventsMethodName:
		if !v.events {
			break
		}
		var req protocol.GetEventsRequest
		if err := json.Unmarshal(params, &req); err != nil {
			return nil, &rpcError{Code: -32602, Message: err.Error()}, false
		}
		return s.getEvents(v, req)
	case protocol.SendTransactionMethodName:
		var req protocol.SendTransactionRequest
		if err := json.Unmarshal(params, &req); err != nil {
			return nil, &rpcError{Code: -32602, Message: err.Error()}, false
		}
		// Every endpoint relays to the network, and answers with the
		// latest ledger it knows.
		result, e, lose = s.send(req.Transaction)
		if r, ok := result.(protocol.SendTransactionResponse); ok {
			r.LatestLedger, r.LatestLedgerCloseTime = v.latest, v.latestAt
			result = r
		}
		return result, e, lose
	}
	// What jrpc2, stellar-rpc's JSON-RPC server, answers for a method it
	// does not have.
	return nil, &rpcError{Code: -32601, Message: "method not found"}, false
}

// holds is whether the view's history has ledger.
func (v view) holds(ledger uint32) bool {
	return ledger >= v.oldest && ledger <= v.latest
}

// maxHealthyLatency is stellar-rpc's default max-healthy-ledger-latency.
const maxHealthyLatency = 30 * time.Second

// health answers getHealth as stellar-rpc does: unhealthy once its latest
// ledger closed too long ago by the network's clock (a node stuck behind).
func (s *Server) health(v view) (any, *rpcError, bool) {
	if latency := s.now.Sub(time.Unix(v.latestAt, 0)); latency > maxHealthyLatency {
		return nil, &rpcError{Code: -32603, Message: fmt.Sprintf("latency (%s) since last known ledger closed is too high (>%s)",
			latency.Round(time.Second), maxHealthyLatency)}, false
	}
	return protocol.GetHealthResponse{Status: "healthy", LatestLedger: v.latest, LatestLedgerCloseTime: v.latestAt,
		OldestLedger: v.oldest, OldestLedgerCloseTime: v.oldestAt, LedgerRetentionWindow: 17280}, nil, false
}

// ledgerEntries answers the accounts and trustlines as they stood at the
// view's latest ledger.
func (s *Server) ledgerEntries(v view, req protocol.GetLedgerEntriesRequest) (any, *rpcError, bool) {
	resp := protocol.GetLedgerEntriesResponse{LatestLedger: v.latest, Entries: []protocol.LedgerEntryResult{}}
	fault := s.nextEntriesFault()
	switch fault {
	case EntriesEmpty:
		return resp, nil, false
	case EntriesForeign:
		return s.foreignEntries(resp, req.Keys)
	}
	for _, k := range req.Keys {
		if fault == EntriesFirstOnly && len(resp.Entries) == 1 {
			break
		}
		var key xdr.LedgerKey
		if err := xdr.SafeUnmarshalBase64(k, &key); err != nil {
			return nil, &rpcError{Code: -32602, Message: "bad key: " + err.Error()}, false
		}
		var data xdr.LedgerEntryData
		var modified uint32
		switch key.Type {
		case xdr.LedgerEntryTypeAccount:
			a := s.accountAt(key.Account.AccountId.Address(), v.latest)
			if a == nil {
				continue
			}
			data = xdr.LedgerEntryData{Type: xdr.LedgerEntryTypeAccount, Account: &xdr.AccountEntry{
				AccountId: key.Account.AccountId, Balance: xdr.Int64(a.native), SeqNum: xdr.SequenceNumber(a.seq)}}
			modified = a.modified
		case xdr.LedgerEntryTypeTrustline:
			a := s.accountAt(key.TrustLine.AccountId.Address(), v.latest)
			if a == nil {
				continue
			}
			l := a.lines[key.TrustLine.Asset.ToAsset().StringCanonical()]
			if l == nil {
				continue
			}
			data = xdr.LedgerEntryData{Type: xdr.LedgerEntryTypeTrustline, TrustLine: &xdr.TrustLineEntry{
				AccountId: key.TrustLine.AccountId, Asset: l.asset, Balance: xdr.Int64(l.balance), Limit: xdr.Int64(l.limit)}}
			modified = a.modified
		default:
			continue
		}
		b64, err := xdr.MarshalBase64(data)
		if err != nil {
			return nil, &rpcError{Code: -32603, Message: err.Error()}, false
		}
		resp.Entries = append(resp.Entries, protocol.LedgerEntryResult{KeyXDR: k, DataXDR: b64, LastModifiedLedger: modified})
	}
	return resp, nil, false
}

// foreignEntries answers the keys with entries of an account nobody asked
// about, each under its own (unrequested) key.
func (s *Server) foreignEntries(resp protocol.GetLedgerEntriesResponse, keys []string) (any, *rpcError, bool) {
	asked := map[string]bool{}
	for _, k := range keys {
		var key xdr.LedgerKey
		if xdr.SafeUnmarshalBase64(k, &key) == nil && key.Account != nil {
			asked[key.Account.AccountId.Address()] = true
		}
	}
	for addr, a := range s.accounts {
		if asked[addr] {
			continue
		}
		id, err := xdr.AddressToAccountId(addr)
		if err != nil {
			continue
		}
		key, err := id.LedgerKey()
		if err != nil {
			continue
		}
		kb, _ := xdr.MarshalBase64(key)
		db, _ := xdr.MarshalBase64(xdr.LedgerEntryData{Type: xdr.LedgerEntryTypeAccount, Account: &xdr.AccountEntry{
			AccountId: id, Balance: xdr.Int64(a.native), SeqNum: xdr.SequenceNumber(a.seq)}})
		for range keys {
			resp.Entries = append(resp.Entries, protocol.LedgerEntryResult{KeyXDR: kb, DataXDR: db, LastModifiedLedger: a.modified})
		}
		break
	}
	return resp, nil, false
}
