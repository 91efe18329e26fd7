package stellartest

import (
	"encoding/json"

	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// call answers one JSON-RPC method; lose asks the caller to drop the reply.
func (s *Server) call(method string, params json.RawMessage) (result any, e *rpcError, lose bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	closeTime := s.now.Unix()
	switch method {
	case protocol.GetHealthMethodName:
		return protocol.GetHealthResponse{Status: "healthy", LatestLedger: s.ledger, LatestLedgerCloseTime: closeTime,
			OldestLedger: s.oldest, LedgerRetentionWindow: 17280}, nil, false
	case protocol.GetNetworkMethodName:
		return protocol.GetNetworkResponse{Passphrase: s.Passphrase, ProtocolVersion: 23}, nil, false
	case protocol.GetLatestLedgerMethodName:
		return protocol.GetLatestLedgerResponse{Sequence: s.ledger, LedgerCloseTime: closeTime, ProtocolVersion: 23}, nil, false
	case protocol.GetFeeStatsMethodName:
		return s.feeStats(), nil, false
	case protocol.GetLedgerEntriesMethodName:
		var req protocol.GetLedgerEntriesRequest
		if err := json.Unmarshal(params, &req); err != nil {
			return nil, &rpcError{Code: -32602, Message: err.Error()}, false
		}
		return s.ledgerEntries(req)
	case protocol.GetTransactionMethodName:
		var req protocol.GetTransactionRequest
		if err := json.Unmarshal(params, &req); err != nil {
			return nil, &rpcError{Code: -32602, Message: err.Error()}, false
		}
		resp := protocol.GetTransactionResponse{LatestLedger: s.ledger, LatestLedgerCloseTime: closeTime,
			OldestLedger: s.oldest, OldestLedgerCloseTime: s.oldestAt}
		resp.Status = protocol.TransactionStatusNotFound
		if t := s.txs[req.Hash]; t != nil {
			resp.Status, resp.Ledger, resp.LedgerCloseTime = t.status, t.ledger, t.closedAt
			resp.EnvelopeXDR, resp.ResultXDR, resp.TransactionHash = t.envelope, t.result, req.Hash
		}
		return resp, nil, false
	case protocol.GetTransactionsMethodName:
		var req protocol.GetTransactionsRequest
		if err := json.Unmarshal(params, &req); err != nil {
			return nil, &rpcError{Code: -32602, Message: err.Error()}, false
		}
		return s.transactions(req)
	case protocol.SendTransactionMethodName:
		var req protocol.SendTransactionRequest
		if err := json.Unmarshal(params, &req); err != nil {
			return nil, &rpcError{Code: -32602, Message: err.Error()}, false
		}
		return s.send(req.Transaction)
	}
	return nil, &rpcError{Code: -32601, Message: "method not found: " + method}, false
}

func (s *Server) ledgerEntries(req protocol.GetLedgerEntriesRequest) (any, *rpcError, bool) {
	resp := protocol.GetLedgerEntriesResponse{LatestLedger: s.ledger, Entries: []protocol.LedgerEntryResult{}}
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
			a := s.accounts[key.Account.AccountId.Address()]
			if a == nil {
				continue
			}
			data = xdr.LedgerEntryData{Type: xdr.LedgerEntryTypeAccount, Account: &xdr.AccountEntry{
				AccountId: key.Account.AccountId, Balance: xdr.Int64(a.native), SeqNum: xdr.SequenceNumber(a.seq)}}
			modified = a.modified
		case xdr.LedgerEntryTypeTrustline:
			a := s.accounts[key.TrustLine.AccountId.Address()]
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
