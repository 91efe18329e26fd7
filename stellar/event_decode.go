package stellar

import (
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"time"

	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// Transfer is one CAP-67 asset event ("unified asset events", protocol 23):
// every payment, path payment, mint, burn and clawback of a Stellar asset
// emits one in the Stellar Asset Contract's format, from the contract of
// the asset moved.
type Transfer struct {
	EventID string
	Name    string // transfer, mint, burn or clawback
	// From and To are the accounts (or claimable balance, pool or contract
	// addresses) debited and credited; a mint has no From, a burn and a
	// clawback no To (the asset's issuer is on the other side).
	From, To string
	Asset    string // CODE:ISSUER, as the event's last topic names it
	Stroops  int64
	// ToMuxedID is the event's to_muxed_id: the destination's muxed id,
	// or the transaction's memo when the destination is a plain account
	// (an id in decimal, text as is, a hash in hex).
	ToMuxedID string
	IDMemo    bool // ToMuxedID was a u64
	TxHash    string
	Ledger    int64
	ClosedAt  time.Time
}

// decodeTransfer reads one getEvents answer as an asset movement. An event
// that is not one of the four asset movements, or is malformed, is an
// error: the filter asked for nothing else.
func decodeTransfer(e protocol.EventInfo) (Transfer, error) {
	t := Transfer{EventID: e.ID, TxHash: e.TransactionHash, Ledger: int64(e.Ledger)}
	if e.ID == "" || e.TransactionHash == "" || e.Ledger <= 0 {
		return t, fmt.Errorf("event %q without its id, transaction or ledger", e.ID)
	}
	closed, err := time.Parse(time.RFC3339, e.LedgerClosedAt)
	if err != nil {
		return t, fmt.Errorf("event %s: ledger close time %q: %w", e.ID, e.LedgerClosedAt, err)
	}
	t.ClosedAt = closed.UTC()
	topics := make([]xdr.ScVal, len(e.TopicXDR))
	for i, b64 := range e.TopicXDR {
		if err := xdr.SafeUnmarshalBase64(b64, &topics[i]); err != nil {
			return t, fmt.Errorf("event %s: topic %d: %w", e.ID, i, err)
		}
	}
	if len(topics) == 0 {
		return t, fmt.Errorf("event %s has no topics", e.ID)
	}
	sym, ok := topics[0].GetSym()
	if !ok {
		return t, fmt.Errorf("event %s: first topic is not a symbol", e.ID)
	}
	t.Name = string(sym)
	// The addresses each kind names, before the asset's name.
	var addrs []*string
	switch t.Name {
	case "transfer":
		addrs = []*string{&t.From, &t.To}
	case "mint":
		addrs = []*string{&t.To}
	case "burn", "clawback":
		addrs = []*string{&t.From}
	default:
		return t, fmt.Errorf("event %s is a %q event, not an asset movement", e.ID, t.Name)
	}
	if len(topics) != len(addrs)+2 {
		return t, fmt.Errorf("event %s: a %s event has %d topics, not %d", e.ID, t.Name, len(topics), len(addrs)+2)
	}
	for i, dst := range addrs {
		if *dst, err = addressOf(topics[i+1]); err != nil {
			return t, fmt.Errorf("event %s: topic %d: %w", e.ID, i+1, err)
		}
	}
	asset, ok := topics[len(topics)-1].GetStr()
	if !ok {
		return t, fmt.Errorf("event %s: last topic is not the asset's name", e.ID)
	}
	t.Asset = string(asset)
	var value xdr.ScVal
	if err := xdr.SafeUnmarshalBase64(e.ValueXDR, &value); err != nil {
		return t, fmt.Errorf("event %s: value: %w", e.ID, err)
	}
	if err := t.readValue(value); err != nil {
		return t, fmt.Errorf("event %s: %w", e.ID, err)
	}
	return t, nil
}

// addressOf renders an address topic as its StrKey.
func addressOf(v xdr.ScVal) (string, error) {
	a, ok := v.GetAddress()
	if !ok {
		return "", fmt.Errorf("not an address")
	}
	return a.String()
}

// readValue reads the event's data: the amount as an i128, or a map of
// amount and to_muxed_id.
func (t *Transfer) readValue(v xdr.ScVal) error {
	if n, ok := v.GetI128(); ok {
		return t.setAmount(n)
	}
	m, ok := v.GetMap()
	if !ok || m == nil {
		return fmt.Errorf("data is neither an amount nor a map")
	}
	amount := false
	for _, entry := range *m {
		key, ok := entry.Key.GetSym()
		if !ok {
			return fmt.Errorf("data map key is not a symbol")
		}
		switch key {
		case "amount":
			n, ok := entry.Val.GetI128()
			if !ok {
				return fmt.Errorf("data amount is not an i128")
			}
			if err := t.setAmount(n); err != nil {
				return err
			}
			amount = true
		case "to_muxed_id":
			t.ToMuxedID, t.IDMemo = muxedID(entry.Val)
		}
	}
	if !amount {
		return fmt.Errorf("data map has no amount")
	}
	return nil
}

func (t *Transfer) setAmount(n xdr.Int128Parts) error {
	if n.Hi != 0 || uint64(n.Lo) > math.MaxInt64 || n.Lo == 0 {
		return fmt.Errorf("amount %d:%d is not a positive int64", n.Hi, n.Lo)
	}
	t.Stroops = int64(n.Lo)
	return nil
}

// muxedID renders to_muxed_id: a u64 in decimal, a string as is, bytes in
// hex.
func muxedID(v xdr.ScVal) (string, bool) {
	if n, ok := v.GetU64(); ok {
		return strconv.FormatUint(uint64(n), 10), true
	}
	if s, ok := v.GetStr(); ok {
		return string(s), false
	}
	if b, ok := v.GetBytes(); ok {
		return hex.EncodeToString(b), false
	}
	return "", false
}
