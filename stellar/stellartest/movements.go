package stellartest

import (
	"strconv"

	"github.com/stellar/go-stellar-sdk/xdr"
)

// Movement is one movement of an asset to or from an account, as the
// network's events have it: what a client reading the account's events
// must record, once each.
type Movement struct {
	EventID string
	Hash    string
	Ledger  uint32
	In      bool  // credited to the account (else debited)
	Stroops int64 // always positive
	// Memo is the event's to_muxed_id as text or a decimal id ("" when it
	// has none): a deposit's memo.
	Memo string
}

// Movements lists every movement of asset to or from the account at
// address, pruned or not, in the order the network applied them. A
// payment of the account to itself moves nothing and is not listed.
func (s *Server) Movements(address string, asset xdr.Asset) []Movement {
	s.mu.Lock()
	defer s.mu.Unlock()
	raw, _ := asset.ContractID(s.Passphrase)
	var out []Movement
	for _, e := range s.events {
		if e.body.ContractId == nil || *e.body.ContractId != xdr.ContractId(raw) {
			continue
		}
		from, to := parties(e.body.Body.V0.Topics)
		if from == to {
			continue
		}
		if from != address && to != address {
			continue
		}
		m := Movement{EventID: e.cursor.String(), Hash: e.hash, Ledger: e.cursor.Ledger, In: to == address}
		m.Stroops, m.Memo = amountOf(e.body.Body.V0.Data)
		out = append(out, m)
	}
	return out
}

// Latest is the network's latest ledger.
func (s *Server) Latest() uint32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ledger
}

// parties is who an event's topics debit and credit ("" for the issuer's
// side of a mint, burn or clawback).
func parties(topics []xdr.ScVal) (from, to string) {
	addr := func(v xdr.ScVal) string {
		if a, ok := v.GetAddress(); ok && a.AccountId != nil {
			return a.AccountId.Address()
		}
		return ""
	}
	switch sym, _ := topics[0].GetSym(); sym {
	case "transfer":
		return addr(topics[1]), addr(topics[2])
	case "mint":
		return "", addr(topics[1])
	}
	return addr(topics[1]), "" // burn, clawback
}

// amountOf reads an event's data: the amount, and the to_muxed_id of a map.
func amountOf(v xdr.ScVal) (int64, string) {
	if n, ok := v.GetI128(); ok {
		return int64(n.Lo), ""
	}
	var stroops int64
	var memo string
	m, _ := v.GetMap()
	for _, e := range *m {
		switch sym, _ := e.Key.GetSym(); sym {
		case "amount":
			stroops = int64(e.Val.MustI128().Lo)
		case "to_muxed_id":
			switch e.Val.Type {
			case xdr.ScValTypeScvString:
				memo = string(e.Val.MustStr())
			case xdr.ScValTypeScvU64:
				memo = strconv.FormatUint(uint64(e.Val.MustU64()), 10)
			}
		}
	}
	return stroops, memo
}
