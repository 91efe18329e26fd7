package stellartest

import (
	"crypto/ed25519"
	"encoding/hex"

	"github.com/stellar/go-stellar-sdk/network"
	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// send checks an envelope as stellar-core would before accepting it, then
// (faults aside) applies it in a new ledger closed at the clock.
func (s *Server) send(b64 string) (any, *rpcError, bool) {
	s.sends++
	resp := protocol.SendTransactionResponse{LatestLedger: s.ledger, LatestLedgerCloseTime: s.now.Unix()}
	var env xdr.TransactionEnvelope
	if err := xdr.SafeUnmarshalBase64(b64, &env); err != nil || env.Type != xdr.EnvelopeTypeEnvelopeTypeTx {
		return refuse(resp, xdr.TransactionResultCodeTxMalformed)
	}
	hash, err := network.HashTransactionInEnvelope(env, s.Passphrase)
	if err != nil {
		return refuse(resp, xdr.TransactionResultCodeTxMalformed)
	}
	resp.Hash = hex.EncodeToString(hash[:])
	var fault Fault
	// A resend of a dropped transaction leaves the queued faults to the
	// next other send.
	if len(s.faults) > 0 && !s.dropped[resp.Hash] {
		fault, s.faults = s.faults[0], s.faults[1:]
	}
	switch fault {
	case TryAgainLater:
		resp.Status = "TRY_AGAIN_LATER"
		return resp, nil, false
	case FeeRefused:
		return refuse(resp, xdr.TransactionResultCodeTxInsufficientFee)
	}
	src := env.SourceAccount().ToAccountId()
	a := s.accounts[src.Address()]
	if fault == BadSeq && a != nil {
		s.nextLedger()
		a.seq, a.modified = a.seq+1, s.ledger
	}
	// The network charges its minimum, whatever the bid above it.
	fee := s.minFee * int64(len(env.Operations()))
	switch tb := env.TimeBounds(); {
	case a == nil:
		return refuse(resp, xdr.TransactionResultCodeTxNoAccount)
	case tb != nil && tb.MaxTime != 0 && s.now.Unix() > int64(tb.MaxTime):
		return refuse(resp, xdr.TransactionResultCodeTxTooLate)
	case tb != nil && s.now.Unix() < int64(tb.MinTime):
		return refuse(resp, xdr.TransactionResultCodeTxTooEarly)
	case env.SeqNum() != a.seq+1:
		// Also what a resend of an applied transaction gets: its number
		// has been used.
		return refuse(resp, xdr.TransactionResultCodeTxBadSeq)
	case !signedBy(env, hash, src.Address()):
		return refuse(resp, xdr.TransactionResultCodeTxBadAuth)
	case int64(env.Fee()) < fee:
		return refuse(resp, xdr.TransactionResultCodeTxInsufficientFee)
	case a.native-a.minBalance(0) < fee:
		// The fee may not come out of the reserve.
		return refuse(resp, xdr.TransactionResultCodeTxInsufficientBalance)
	}
	resp.Status = "PENDING"
	if fault == Drop || s.dropped[resp.Hash] {
		s.dropped[resp.Hash] = true
		return resp, nil, false
	}
	if s.crash != nil && s.crash(resp.Hash, false) {
		return resp, nil, true
	}
	s.applied[resp.Hash]++
	s.apply(env, resp.Hash, b64, a, fee)
	if s.crash != nil {
		s.crash(resp.Hash, true)
	}
	return resp, nil, fault == LoseReply
}

func refuse(resp protocol.SendTransactionResponse, code xdr.TransactionResultCode) (any, *rpcError, bool) {
	b64, err := xdr.MarshalBase64(xdr.TransactionResult{Result: xdr.TransactionResultResult{Code: code}})
	if err != nil {
		return nil, &rpcError{Code: -32603, Message: err.Error()}, false
	}
	resp.Status, resp.ErrorResultXDR = "ERROR", b64
	return resp, nil, false
}

// signedBy verifies that a signature on the envelope is the source
// account's over the network's hash of the transaction.
func signedBy(env xdr.TransactionEnvelope, hash [32]byte, address string) bool {
	raw, err := strkey.Decode(strkey.VersionByteAccountID, address)
	if err != nil {
		return false
	}
	for _, sig := range env.Signatures() {
		if ed25519.Verify(ed25519.PublicKey(raw), hash[:], sig.Signature) {
			return true
		}
	}
	return false
}

// apply closes a ledger holding the transaction: its sequence number and
// fee are spent whatever happens; its operations apply all or nothing, and
// emit their events only if all succeed.
func (s *Server) apply(env xdr.TransactionEnvelope, hash, b64 string, a *account, fee int64) {
	s.nextLedger()
	a.seq, a.native, a.modified = env.SeqNum(), a.native-fee, s.ledger
	src := env.SourceAccount()
	var results []xdr.OperationResult
	var undo []func()
	var events [][]xdr.ContractEvent
	failed := false
	for _, op := range env.Operations() {
		r, u := s.applyOp(src.ToAccountId().Address(), op)
		results = append(results, r)
		undo = append(undo, u...)
		if r.Code != xdr.OperationResultCodeOpInner || opFailed(r) {
			failed = true
		}
		events = append(events, s.opEvents(src, op, env.Memo()))
	}
	code, status := xdr.TransactionResultCodeTxSuccess, protocol.TransactionStatusSuccess
	if !failed {
		s.notePaid(env, hash)
		for i, evs := range events {
			s.emit(hash, i, evs...)
		}
	}
	if failed {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
		code, status = xdr.TransactionResultCodeTxFailed, protocol.TransactionStatusFailed
	}
	res, _ := xdr.MarshalBase64(xdr.TransactionResult{FeeCharged: xdr.Int64(fee), Result: xdr.TransactionResultResult{Code: code, Results: &results}})
	s.record(hash, &txRecord{status: status, ledger: s.ledger, closedAt: s.now.Unix(), envelope: b64, result: res})
}

func opFailed(r xdr.OperationResult) bool {
	switch {
	case r.Tr == nil:
		return false
	case r.Tr.PaymentResult != nil:
		return r.Tr.PaymentResult.Code != xdr.PaymentResultCodePaymentSuccess
	case r.Tr.ChangeTrustResult != nil:
		return r.Tr.ChangeTrustResult.Code != xdr.ChangeTrustResultCodeChangeTrustSuccess
	case r.Tr.ClawbackResult != nil:
		return r.Tr.ClawbackResult.Code != xdr.ClawbackResultCodeClawbackSuccess
	}
	return false
}

// opEvents is what the operation emits if its transaction succeeds; the
// transaction's source src is the operation's unless it names its own.
func (s *Server) opEvents(src xdr.MuxedAccount, op xdr.Operation, memo xdr.Memo) []xdr.ContractEvent {
	if op.SourceAccount != nil {
		src = *op.SourceAccount
	}
	switch op.Body.Type {
	case xdr.OperationTypePayment:
		p := op.Body.PaymentOp
		return []xdr.ContractEvent{s.movement(p.Asset, src, p.Destination, int64(p.Amount), memo)}
	case xdr.OperationTypeClawback:
		c := op.Body.ClawbackOp
		return []xdr.ContractEvent{s.clawbackEvent(c.Asset, c.From, int64(c.Amount))}
	}
	return nil
}

func (s *Server) applyOp(src string, op xdr.Operation) (xdr.OperationResult, []func()) {
	if op.SourceAccount != nil {
		src = op.SourceAccount.ToAccountId().Address()
	}
	switch op.Body.Type {
	case xdr.OperationTypePayment:
		code, undo := s.pay(src, *op.Body.PaymentOp)
		return xdr.OperationResult{Code: xdr.OperationResultCodeOpInner, Tr: &xdr.OperationResultTr{
			Type: xdr.OperationTypePayment, PaymentResult: &xdr.PaymentResult{Code: code}}}, undo
	case xdr.OperationTypeChangeTrust:
		code, undo := s.changeTrust(src, *op.Body.ChangeTrustOp)
		return xdr.OperationResult{Code: xdr.OperationResultCodeOpInner, Tr: &xdr.OperationResultTr{
			Type: xdr.OperationTypeChangeTrust, ChangeTrustResult: &xdr.ChangeTrustResult{Code: code}}}, undo
	case xdr.OperationTypeClawback:
		code, undo := s.clawback(src, *op.Body.ClawbackOp)
		return xdr.OperationResult{Code: xdr.OperationResultCodeOpInner, Tr: &xdr.OperationResultTr{
			Type: xdr.OperationTypeClawback, ClawbackResult: &xdr.ClawbackResult{Code: code}}}, undo
	}
	return xdr.OperationResult{Code: xdr.OperationResultCodeOpNotSupported}, nil
}

// pay moves a credit asset; its issuer sends and receives without a line.
func (s *Server) pay(src string, op xdr.PaymentOp) (xdr.PaymentResultCode, []func()) {
	var typ xdr.AssetType
	var code, issuer string
	if err := op.Asset.Extract(&typ, &code, &issuer); err != nil || typ == xdr.AssetTypeAssetTypeNative || op.Amount <= 0 {
		return xdr.PaymentResultCodePaymentMalformed, nil
	}
	k := op.Asset.StringCanonical()
	dst := op.Destination.ToAccountId().Address()
	d := s.accounts[dst]
	if d == nil {
		return xdr.PaymentResultCodePaymentNoDestination, nil
	}
	var from, to *line
	if src != issuer {
		if from = s.accounts[src].lines[k]; from == nil {
			return xdr.PaymentResultCodePaymentSrcNoTrust, nil
		}
		if from.balance < int64(op.Amount) {
			return xdr.PaymentResultCodePaymentUnderfunded, nil
		}
	}
	if dst != issuer {
		if to = d.lines[k]; to == nil {
			return xdr.PaymentResultCodePaymentNoTrust, nil
		}
		if to.balance > to.limit-int64(op.Amount) {
			return xdr.PaymentResultCodePaymentLineFull, nil
		}
	}
	amt := int64(op.Amount)
	if from != nil {
		from.balance -= amt
	}
	if to != nil {
		to.balance += amt
	}
	d.modified = s.ledger
	return xdr.PaymentResultCodePaymentSuccess, []func(){func() {
		if from != nil {
			from.balance += amt
		}
		if to != nil {
			to.balance -= amt
		}
	}}
}

func (s *Server) changeTrust(src string, op xdr.ChangeTrustOp) (xdr.ChangeTrustResultCode, []func()) {
	if op.Line.Type == xdr.AssetTypeAssetTypeNative || op.Line.Type == xdr.AssetTypeAssetTypePoolShare {
		return xdr.ChangeTrustResultCodeChangeTrustMalformed, nil
	}
	asset := xdr.Asset{Type: op.Line.Type, AlphaNum4: op.Line.AlphaNum4, AlphaNum12: op.Line.AlphaNum12}
	k := asset.StringCanonical()
	a := s.accounts[src]
	if l := a.lines[k]; l != nil {
		l.limit = int64(op.Limit)
		return xdr.ChangeTrustResultCodeChangeTrustSuccess, nil
	}
	if a.native < a.minBalance(1) {
		return xdr.ChangeTrustResultCodeChangeTrustLowReserve, nil
	}
	a.lines[k] = &line{asset: asset.ToTrustLineAsset(), limit: int64(op.Limit)}
	return xdr.ChangeTrustResultCodeChangeTrustSuccess, []func(){func() { delete(a.lines, k) }}
}

// clawback burns an account's asset by its issuer. The fake does not keep
// trustline flags, so every line may be clawed back.
func (s *Server) clawback(src string, op xdr.ClawbackOp) (xdr.ClawbackResultCode, []func()) {
	var typ xdr.AssetType
	var code, issuer string
	from := op.From.ToAccountId().Address()
	if err := op.Asset.Extract(&typ, &code, &issuer); err != nil || typ == xdr.AssetTypeAssetTypeNative ||
		src != issuer || from == issuer || op.Amount <= 0 {
		return xdr.ClawbackResultCodeClawbackMalformed, nil
	}
	a := s.accounts[from]
	if a == nil || a.lines[op.Asset.StringCanonical()] == nil {
		return xdr.ClawbackResultCodeClawbackNoTrust, nil
	}
	l := a.lines[op.Asset.StringCanonical()]
	if l.balance < int64(op.Amount) {
		return xdr.ClawbackResultCodeClawbackUnderfunded, nil
	}
	amt := int64(op.Amount)
	l.balance -= amt
	a.modified = s.ledger
	return xdr.ClawbackResultCodeClawbackSuccess, []func(){func() { l.balance += amt }}
}
