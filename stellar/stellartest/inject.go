package stellartest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// EntriesFault is an injected misanswer of the next getLedgerEntries.
type EntriesFault int

const (
	// EntriesEmpty answers with no entries at all, as a node that has not
	// caught up (or lost its state) does.
	EntriesEmpty EntriesFault = iota + 1
	// EntriesFirstOnly answers with the first entry found and drops the
	// rest (an account without its trustline).
	EntriesFirstOnly
	// EntriesForeign answers each key with another account's entry: the
	// reply's keys do not match the request's.
	EntriesForeign
)

// InjectEntries queues misanswers for the next getLedgerEntries calls, in
// order.
func (s *Server) InjectEntries(f ...EntriesFault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.entries = append(s.entries, f...)
}

// SetMinFee sets the network's minimum fee per operation, in stroops:
// sends bidding less are refused with tx_insufficient_fee, and applied
// transactions are charged it.
func (s *Server) SetMinFee(stroops int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.minFee = stroops
}

// SetFeeStats makes getFeeStats report stroops as every percentile of the
// recent inclusion fees, whatever the minimum (0: report the minimum).
func (s *Server) SetFeeStats(stroops int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.feeStat = stroops
}

func (s *Server) feeStats(v view) protocol.GetFeeStatsResponse {
	fee := s.feeStat
	if fee == 0 {
		fee = s.minFee
	}
	u := uint64(fee)
	d := protocol.FeeDistribution{Max: u, Min: u, Mode: u, P10: u, P20: u, P30: u, P40: u, P50: u, P60: u, P70: u,
		P80: u, P90: u, P95: u, P99: u, TransactionCount: 10, LedgerCount: 10}
	return protocol.GetFeeStatsResponse{InclusionFee: d, SorobanInclusionFee: d, LatestLedger: v.latest}
}

// OutsidePayment applies, in a new ledger, a payment of stroops of asset
// from one account to another made by some other holder of the source's
// key: it takes the source's next sequence number and pays the fee, as a
// restored database's twin or a leaked key would. It returns the
// transaction's hash. It emits its transfer (or mint or burn) event.
func (s *Server) OutsidePayment(from, to string, asset xdr.Asset, stroops int64) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, d := s.accounts[from], s.accounts[to]
	k := asset.StringCanonical()
	s.nextLedger()
	a.seq++
	a.native -= s.minFee
	a.modified = s.ledger
	if l := a.lines[k]; l != nil {
		l.balance -= stroops
	}
	if d != nil && d.lines[k] != nil {
		d.lines[k].balance += stroops
		d.modified = s.ledger
	}
	sum := sha256.Sum256([]byte(fmt.Sprintf("outside %s %d", from, a.seq)))
	hash := hex.EncodeToString(sum[:])
	s.applied[hash]++
	res, _ := xdr.MarshalBase64(xdr.TransactionResult{FeeCharged: xdr.Int64(s.minFee), Result: xdr.TransactionResultResult{
		Code: xdr.TransactionResultCodeTxSuccess, Results: &[]xdr.OperationResult{}}})
	s.record(hash, &txRecord{status: protocol.TransactionStatusSuccess, ledger: s.ledger, closedAt: s.now.Unix(), result: res,
		envelope: unsignedEnvelope(from, to, asset, stroops, a.seq, s.minFee)})
	s.emit(hash, 0, s.movement(asset, xdr.MustMuxedAddress(from), xdr.MustMuxedAddress(to), stroops, xdr.Memo{Type: xdr.MemoTypeMemoNone}))
	return hash
}

// nextEntriesFault takes the next queued getLedgerEntries misanswer.
func (s *Server) nextEntriesFault() EntriesFault {
	if len(s.entries) == 0 {
		return 0
	}
	f := s.entries[0]
	s.entries = s.entries[1:]
	return f
}

// notePaid records the successful payments of an applied transaction by
// its memo (text, or an id in decimal).
func (s *Server) notePaid(env xdr.TransactionEnvelope, hash string) {
	memo := ""
	switch m := env.Memo(); m.Type {
	case xdr.MemoTypeMemoText:
		memo = *m.Text
	case xdr.MemoTypeMemoId:
		memo = fmt.Sprint(uint64(*m.Id))
	}
	for _, op := range env.Operations() {
		if op.Body.Type == xdr.OperationTypePayment {
			s.paid[memo] = append(s.paid[memo], hash)
		}
	}
}

// Paid is how many payments carrying memo the network applied
// successfully, whatever transaction carried them: a payout paid twice
// shows 2 here even when its database forgot the first.
func (s *Server) Paid(memo string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.paid[memo])
}

// PaidBy is the hashes of the transactions that paid memo, in the order
// they applied: what an operator finds on an explorer.
func (s *Server) PaidBy(memo string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.paid[memo]...)
}
