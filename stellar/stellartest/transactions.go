package stellartest

import (
	"fmt"
	"strconv"

	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// record keeps tx as the transaction applied under hash, in the order the
// network applied it (getTransactions).
func (s *Server) record(hash string, tx *txRecord) {
	s.txs[hash] = tx
	s.order = append(s.order, hash)
}

// transactions answers getTransactions as stellar-rpc does: the
// transactions applied from the start ledger on (or after the cursor), in
// application order, a page at a time; a start ledger outside the
// retained history is refused.
func (s *Server) transactions(v view, req protocol.GetTransactionsRequest) (any, *rpcError, bool) {
	limit := 50
	var cursor string
	if req.Pagination != nil {
		cursor = req.Pagination.Cursor
		if req.Pagination.Limit > 0 {
			limit = int(min(req.Pagination.Limit, 200))
		}
	}
	from := 0
	switch {
	case cursor != "":
		n, err := strconv.Atoi(cursor)
		if err != nil || n < 0 || n > len(s.order) {
			return nil, &rpcError{Code: -32602, Message: "invalid cursor " + cursor}, false
		}
		from = n
	case !v.holds(req.StartLedger):
		return nil, &rpcError{Code: -32602, Message: fmt.Sprintf("start ledger must be between the oldest ledger: %d and the latest ledger: %d",
			v.oldest, v.latest)}, false
	default:
		for from < len(s.order) && s.txs[s.order[from]].ledger < req.StartLedger {
			from++
		}
	}
	resp := protocol.GetTransactionsResponse{Transactions: []protocol.TransactionInfo{}, LatestLedger: v.latest,
		LatestLedgerCloseTime: v.latestAt, OldestLedger: v.oldest, OldestLedgerCloseTime: v.oldestAt}
	i := from
	for ; i < len(s.order) && len(resp.Transactions) < limit; i++ {
		t := s.txs[s.order[i]]
		if t.ledger > v.latest {
			break // not yet ingested
		}
		if !v.holds(t.ledger) {
			continue // pruned
		}
		resp.Transactions = append(resp.Transactions, protocol.TransactionInfo{TransactionDetails: protocol.TransactionDetails{
			Status: t.status, TransactionHash: s.order[i], ApplicationOrder: 1, EnvelopeXDR: t.envelope, ResultXDR: t.result, Ledger: t.ledger,
		}, LedgerCloseTime: t.closedAt})
	}
	resp.Cursor = strconv.Itoa(i)
	return resp, nil, false
}

// unsignedEnvelope is the envelope of a transaction made outside payoutd
// with the fake's own bookkeeping (OutsidePayment): its source account,
// sequence number and payment, without signatures.
func unsignedEnvelope(from, to string, asset xdr.Asset, stroops, seq, fee int64) string {
	src, dst := xdr.MustMuxedAddress(from), xdr.MustMuxedAddress(to)
	env := xdr.TransactionEnvelope{Type: xdr.EnvelopeTypeEnvelopeTypeTx, V1: &xdr.TransactionV1Envelope{Tx: xdr.Transaction{
		SourceAccount: src, Fee: xdr.Uint32(fee), SeqNum: xdr.SequenceNumber(seq),
		Cond: xdr.Preconditions{Type: xdr.PreconditionTypePrecondNone},
		Memo: xdr.Memo{Type: xdr.MemoTypeMemoNone},
		Operations: []xdr.Operation{{Body: xdr.OperationBody{Type: xdr.OperationTypePayment,
			PaymentOp: &xdr.PaymentOp{Destination: dst, Asset: asset, Amount: xdr.Int64(stroops)}}}},
	}}}
	b64, _ := xdr.MarshalBase64(env)
	return b64
}
