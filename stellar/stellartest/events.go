package stellartest

import (
	"time"

	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// The CAP-67 unified asset events every movement of a credit asset emits,
// on the asset's Stellar Asset Contract whether or not it is deployed:
//
//	transfer: topics [Symbol("transfer"), Address(from), Address(to), String("CODE:ISSUER")]
//	mint:     topics [Symbol("mint"), Address(to), String(asset)]      (from the issuer)
//	burn:     topics [Symbol("burn"), Address(from), String(asset)]    (to the issuer)
//	clawback: topics [Symbol("clawback"), Address(from), String(asset)]
//
// data is I128(amount), or for a transfer or mint carrying a destination's
// muxing the map {amount: I128, to_muxed_id: U64 | String | Bytes}: the
// M-address's id, else the transaction's memo when the destination is a
// plain account. Fee events are not emitted: payoutd ignores XLM.

// event is one emitted event at its place in the ledger.
type event struct {
	cursor   protocol.Cursor
	closedAt int64 // the ledger's close, Unix seconds
	hash     string
	body     xdr.ContractEvent
}

// txIndex is every transaction's index in its ledger: the fake closes a
// ledger per transaction, and the RPC numbers them from 1 (TOID order).
const txIndex = 1

// emit appends the events of operation op of the transaction hash, applied
// in the current ledger, in order.
func (s *Server) emit(hash string, op int, evs ...xdr.ContractEvent) {
	for i, ev := range evs {
		s.events = append(s.events, event{cursor: protocol.Cursor{Ledger: s.ledger, Tx: txIndex, Op: uint32(op), Event: uint32(i)},
			closedAt: s.closes[s.ledger], hash: hash, body: ev})
	}
}

// movement is the event of amount of asset moving from one account to
// another in a transaction with memo: a transfer, or a mint from the
// issuer, or a burn to it (a payment from the issuer to itself is a
// transfer).
func (s *Server) movement(asset xdr.Asset, from, to xdr.MuxedAccount, amount int64, memo xdr.Memo) xdr.ContractEvent {
	issuer := asset.GetIssuer()
	src, dst := from.ToAccountId(), to.ToAccountId()
	name := asset.StringCanonical()
	switch {
	case src.Address() == issuer && dst.Address() != issuer:
		return s.assetEvent(asset, []xdr.ScVal{symbol("mint"), address(dst), str(name)}, muxedAmount(amount, to, memo))
	case dst.Address() == issuer && src.Address() != issuer:
		return s.assetEvent(asset, []xdr.ScVal{symbol("burn"), address(src), str(name)}, i128(amount))
	}
	return s.assetEvent(asset, []xdr.ScVal{symbol("transfer"), address(src), address(dst), str(name)}, muxedAmount(amount, to, memo))
}

// clawbackEvent is the event of the issuer taking amount of asset back
// from an account.
func (s *Server) clawbackEvent(asset xdr.Asset, from xdr.MuxedAccount, amount int64) xdr.ContractEvent {
	return s.assetEvent(asset, []xdr.ScVal{symbol("clawback"), address(from.ToAccountId()), str(asset.StringCanonical())}, i128(amount))
}

func (s *Server) assetEvent(asset xdr.Asset, topics []xdr.ScVal, data xdr.ScVal) xdr.ContractEvent {
	raw, _ := asset.ContractID(s.Passphrase) // only fails on an asset that cannot be encoded
	id := xdr.ContractId(raw)
	return xdr.ContractEvent{ContractId: &id, Type: xdr.ContractEventTypeContract,
		Body: xdr.ContractEventBody{V: 0, V0: &xdr.ContractEventV0{Topics: topics, Data: data}}}
}

// muxedAmount is a transfer's or mint's data: the amount alone, or with
// the destination's muxed id (an M-address's) or, to a plain account, the
// transaction's memo, in a map whose Symbol keys are sorted as Soroban
// maps must be.
func muxedAmount(amount int64, to xdr.MuxedAccount, memo xdr.Memo) xdr.ScVal {
	var id xdr.ScVal
	switch {
	case to.Type == xdr.CryptoKeyTypeKeyTypeMuxedEd25519:
		id = u64(uint64(to.Med25519.Id))
	case memo.Type == xdr.MemoTypeMemoId:
		id = u64(uint64(*memo.Id))
	case memo.Type == xdr.MemoTypeMemoText:
		id = str(*memo.Text)
	case memo.Type == xdr.MemoTypeMemoHash:
		id = bytesVal(memo.Hash[:])
	case memo.Type == xdr.MemoTypeMemoReturn:
		id = bytesVal(memo.RetHash[:])
	default:
		return i128(amount)
	}
	m := &xdr.ScMap{{Key: symbol("amount"), Val: i128(amount)}, {Key: symbol("to_muxed_id"), Val: id}}
	return xdr.ScVal{Type: xdr.ScValTypeScvMap, Map: &m}
}

func symbol(s string) xdr.ScVal {
	sym := xdr.ScSymbol(s)
	return xdr.ScVal{Type: xdr.ScValTypeScvSymbol, Sym: &sym}
}

func str(s string) xdr.ScVal {
	v := xdr.ScString(s)
	return xdr.ScVal{Type: xdr.ScValTypeScvString, Str: &v}
}

func address(id xdr.AccountId) xdr.ScVal {
	return xdr.ScVal{Type: xdr.ScValTypeScvAddress, Address: &xdr.ScAddress{Type: xdr.ScAddressTypeScAddressTypeAccount, AccountId: &id}}
}

func i128(v int64) xdr.ScVal {
	hi := xdr.Int64(0)
	if v < 0 {
		hi = -1
	}
	return xdr.ScVal{Type: xdr.ScValTypeScvI128, I128: &xdr.Int128Parts{Hi: hi, Lo: xdr.Uint64(v)}}
}

func u64(v uint64) xdr.ScVal {
	u := xdr.Uint64(v)
	return xdr.ScVal{Type: xdr.ScValTypeScvU64, U64: &u}
}

func bytesVal(b []byte) xdr.ScVal {
	v := xdr.ScBytes(append([]byte(nil), b...))
	return xdr.ScVal{Type: xdr.ScValTypeScvBytes, Bytes: &v}
}

// info is the event as getEvents reports it.
func (e event) info() (protocol.EventInfo, error) {
	v0 := e.body.Body.V0
	info := protocol.EventInfo{EventType: protocol.EventTypeContract, Ledger: int32(e.cursor.Ledger),
		LedgerClosedAt: time.Unix(e.closedAt, 0).UTC().Format(time.RFC3339), ID: e.cursor.String(),
		OpIndex: e.cursor.Op, TxIndex: e.cursor.Tx, TransactionHash: e.hash, InSuccessfulContractCall: true,
		TopicXDR: make([]string, 0, len(v0.Topics))}
	for _, t := range v0.Topics {
		b64, err := xdr.MarshalBase64(t)
		if err != nil {
			return protocol.EventInfo{}, err
		}
		info.TopicXDR = append(info.TopicXDR, b64)
	}
	var err error
	if info.ValueXDR, err = xdr.MarshalBase64(v0.Data); err != nil {
		return protocol.EventInfo{}, err
	}
	if e.body.ContractId != nil {
		info.ContractID = strkey.MustEncode(strkey.VersionByteContract, e.body.ContractId[:])
	}
	return info, nil
}

// Events is every event the network emitted, pruned or not, in order, as
// getEvents reports them.
func (s *Server) Events() []protocol.EventInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]protocol.EventInfo, 0, len(s.events))
	for _, e := range s.events {
		info, err := e.info()
		if err != nil {
			panic(err) // the fake built an event it cannot encode
		}
		out = append(out, info)
	}
	return out
}
