package stellartest

import (
	"encoding/hex"
	"fmt"

	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The outside world's transactions: deposits into payoutd's vaults, an
// issuer's mints and clawbacks. Each is a real transaction of its source,
// applied in a new ledger with the checks and events of any other (it
// fails as the network would fail it: a destination without a trustline
// gets op_no_trust, and no event), but built and applied by the fake
// without a signature, and not counted by Applied.

// Deposit pays stroops of asset from an outside account to the account to,
// with memo as a text memo (empty: none), and returns the transaction's
// hash. The outside account is created, funded and given a trustline if
// missing, and topped up by a mint from the issuer (its own transaction)
// if it holds too little.
//
// ExampleServer_Deposit shows a rail test funding a vault and reading the
// deposit's event.
func (s *Server) Deposit(from, to string, asset xdr.Asset, stroops int64, memo string) string {
	return s.deposit(from, xdr.MustMuxedAddress(to), asset, stroops, memo)
}

// DepositMuxed is Deposit to a muxed M-address: the event's to is the
// underlying account and its to_muxed_id the M-address's id (the memo,
// if any, is not in the event).
func (s *Server) DepositMuxed(from, toMuxed string, asset xdr.Asset, stroops int64, memo string) string {
	return s.deposit(from, xdr.MustMuxedAddress(toMuxed), asset, stroops, memo)
}

func (s *Server) deposit(from string, to xdr.MuxedAccount, asset xdr.Asset, stroops int64, memo string) string {
	if len(memo) > 28 {
		panic(fmt.Sprintf("stellartest: memo %q is longer than the 28 bytes MEMO_TEXT holds", memo))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.outsider(from)
	// The issuer pays from no line: its deposit is a mint.
	if k := asset.StringCanonical(); !issuedBy(asset, from) {
		if a.lines[k] == nil {
			a.lines[k] = &line{asset: asset.ToTrustLineAsset(), limit: 1<<63 - 1}
		}
		if short := stroops - a.lines[k].balance; short > 0 {
			s.mint(xdr.MustMuxedAddress(from), asset, short)
		}
	}
	m := xdr.Memo{Type: xdr.MemoTypeMemoNone}
	if memo != "" {
		m = xdr.Memo{Type: xdr.MemoTypeMemoText, Text: &memo}
	}
	return s.applyOutside(from, m, payment(to, asset, stroops))
}

// Clawback has the asset's issuer take stroops back from the account, as
// a clawback operation in a new ledger, and returns its hash.
func (s *Server) Clawback(from string, asset xdr.Asset, stroops int64) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	issuer := asset.GetIssuer()
	if issuer == "" {
		panic("stellartest: the native asset has no issuer to claw back")
	}
	return s.applyOutside(issuer, xdr.Memo{Type: xdr.MemoTypeMemoNone}, xdr.Operation{Body: xdr.OperationBody{
		Type: xdr.OperationTypeClawback, ClawbackOp: &xdr.ClawbackOp{Asset: asset, From: xdr.MustMuxedAddress(from), Amount: xdr.Int64(stroops)}}})
}

// mint pays stroops of asset from its issuer to the account; s.mu is held.
func (s *Server) mint(to xdr.MuxedAccount, asset xdr.Asset, stroops int64) string {
	issuer := asset.GetIssuer()
	if issuer == "" {
		panic("stellartest: the native asset is not minted")
	}
	return s.applyOutside(issuer, xdr.Memo{Type: xdr.MemoTypeMemoNone}, payment(to, asset, stroops))
}

// applyOutside applies, in a new ledger, a transaction of src with memo
// and ops at its next sequence number, and returns its hash (the network's
// hash of it). s.mu is held.
func (s *Server) applyOutside(src string, memo xdr.Memo, ops ...xdr.Operation) string {
	a := s.outsider(src)
	fee := s.minFee * int64(len(ops))
	env := xdr.TransactionEnvelope{Type: xdr.EnvelopeTypeEnvelopeTypeTx, V1: &xdr.TransactionV1Envelope{Tx: xdr.Transaction{
		SourceAccount: xdr.MustMuxedAddress(src), Fee: xdr.Uint32(fee), SeqNum: xdr.SequenceNumber(a.seq + 1),
		Cond: xdr.Preconditions{Type: xdr.PreconditionTypePrecondNone}, Memo: memo, Operations: ops}}}
	sum, err := network.HashTransactionInEnvelope(env, s.Passphrase)
	if err != nil {
		panic(err)
	}
	b64, err := xdr.MarshalBase64(env)
	if err != nil {
		panic(err)
	}
	hash := hex.EncodeToString(sum[:])
	s.apply(env, hash, b64, a, fee)
	return hash
}

// outsiderXLM is what the fake funds an outside account with: fees for
// as many transactions as a test makes.
const outsiderXLM = 10_000_0000000

// outsider is the account, created and funded as friendbot would if
// missing; s.mu is held.
func (s *Server) outsider(address string) *account {
	a := s.accounts[address]
	if a == nil {
		a = &account{seq: int64(s.ledger) << 32, native: outsiderXLM, modified: s.ledger, lines: map[string]*line{}}
		s.accounts[address] = a
	}
	return a
}

func payment(to xdr.MuxedAccount, asset xdr.Asset, stroops int64) xdr.Operation {
	return xdr.Operation{Body: xdr.OperationBody{Type: xdr.OperationTypePayment,
		PaymentOp: &xdr.PaymentOp{Destination: to, Asset: asset, Amount: xdr.Int64(stroops)}}}
}

func issuedBy(asset xdr.Asset, address string) bool {
	return asset.GetIssuer() != "" && asset.GetIssuer() == address
}
