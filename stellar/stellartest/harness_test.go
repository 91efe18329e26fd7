package stellartest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stellar/go-stellar-sdk/amount"
	"github.com/stellar/go-stellar-sdk/clients/rpcclient"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
	"github.com/stellar/go-stellar-sdk/strkey"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"

	"github.com/payoutd/payoutd/stellar/stellartest"
)

// testNet is a fake network with an issuer of USDC and EURC, a vault
// holding both, and an RPC client on it; names maps every address the
// test made to a short name, for readable event summaries.
type testNet struct {
	t          *testing.T
	ctx        context.Context
	fake       *stellartest.Server
	rpc        *rpcclient.Client
	issuer     *keypair.Full
	usdc, eurc xdr.Asset
	vault      string
	names      map[string]string
}

func newTestNet(t *testing.T) *testNet {
	t.Helper()
	n := &testNet{t: t, ctx: context.Background(), issuer: keypair.MustRandom(), names: map[string]string{}}
	n.fake = stellartest.New(network.TestNetworkPassphrase, time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
	t.Cleanup(n.fake.Close)
	n.rpc = rpcclient.NewClient(n.fake.URL, nil)
	t.Cleanup(func() { n.rpc.Close() })
	n.usdc = xdr.MustNewCreditAsset("USDC", n.issuer.Address())
	n.eurc = xdr.MustNewCreditAsset("EURC", n.issuer.Address())
	n.names[n.issuer.Address()] = "issuer"
	n.vault = n.account("vault").Address()
	return n
}

// account is a new funded account named name, trusting USDC and EURC.
func (n *testNet) account(name string) *keypair.Full {
	kp := keypair.MustRandom()
	n.names[kp.Address()] = name
	n.fake.Fund(kp.Address(), 10_0000000)
	n.fake.Trust(kp.Address(), n.usdc, 0)
	n.fake.Trust(kp.Address(), n.eurc, 0)
	return kp
}

// contract is the asset's Stellar Asset Contract id on the test network.
func (n *testNet) contract(asset xdr.Asset) string {
	id, err := asset.ContractID(network.TestNetworkPassphrase)
	if err != nil {
		n.t.Fatal(err)
	}
	return strkey.MustEncode(strkey.VersionByteContract, id[:])
}

// latest is the network's latest ledger.
func (n *testNet) latest() uint32 {
	n.t.Helper()
	l, err := n.rpc.GetLatestLedger(n.ctx)
	if err != nil {
		n.t.Fatal(err)
	}
	return l.Sequence
}

// events is every event from ledger start on that matches filters, read
// a page of limit at a time, and the cursor to poll on from.
func (n *testNet) events(rpc *rpcclient.Client, start uint32, limit uint, filters ...protocol.EventFilter) ([]protocol.EventInfo, string) {
	n.t.Helper()
	var all []protocol.EventInfo
	req := protocol.GetEventsRequest{StartLedger: start, Filters: filters, Pagination: &protocol.PaginationOptions{Limit: limit}}
	for {
		page, err := rpc.GetEvents(n.ctx, req)
		if err != nil {
			n.t.Fatal(err)
		}
		all = append(all, page.Events...)
		if uint(len(page.Events)) < limit {
			return all, page.Cursor
		}
		cursor, err := protocol.ParseCursor(page.Cursor)
		if err != nil {
			n.t.Fatal(err)
		}
		req = protocol.GetEventsRequest{Filters: filters, Pagination: &protocol.PaginationOptions{Cursor: &cursor, Limit: limit}}
	}
}

// pay submits a payment signed by from's key with memo, as another wallet
// would, and returns its hash.
func (n *testNet) pay(from *keypair.Full, to string, asset xdr.Asset, stroops int64, memo txnbuild.Memo) string {
	n.t.Helper()
	b64, hash := n.signed(from, to, asset, stroops, memo)
	if status := n.fake.Submit(b64); status != "PENDING" {
		n.t.Fatalf("payment refused: %s", status)
	}
	return hash
}

// signed is the envelope of a payment from's key signs at its next
// sequence number, and its hash.
func (n *testNet) signed(from *keypair.Full, to string, asset xdr.Asset, stroops int64, memo txnbuild.Memo) (string, string) {
	n.t.Helper()
	tx, err := txnbuild.NewTransaction(txnbuild.TransactionParams{
		SourceAccount:        &txnbuild.SimpleAccount{AccountID: from.Address(), Sequence: n.fake.Sequence(from.Address())},
		IncrementSequenceNum: true, BaseFee: 100, Memo: memo, Preconditions: txnbuild.Preconditions{TimeBounds: txnbuild.NewInfiniteTimeout()},
		Operations: []txnbuild.Operation{&txnbuild.Payment{Destination: to, Amount: amount.StringFromInt64(stroops),
			Asset: txnbuild.MustAssetFromXDR(asset)}},
	})
	if err != nil {
		n.t.Fatal(err)
	}
	if tx, err = tx.Sign(network.TestNetworkPassphrase, from); err != nil {
		n.t.Fatal(err)
	}
	b64, err := tx.Base64()
	if err != nil {
		n.t.Fatal(err)
	}
	h, err := tx.HashHex(network.TestNetworkPassphrase)
	if err != nil {
		n.t.Fatal(err)
	}
	return b64, h
}

// moved is an asset event decoded from what getEvents reports, with the
// SDK's XDR: kind is transfer, mint, burn or clawback; from or to is
// empty where the kind has none; muxed is to_muxed_id (nil, uint64, string
// or []byte).
type moved struct {
	kind, from, to, asset string
	amount                int64
	muxed                 any
}

func decode(t *testing.T, e protocol.EventInfo) moved {
	t.Helper()
	var topics []xdr.ScVal
	for _, b64 := range e.TopicXDR {
		var v xdr.ScVal
		if err := xdr.SafeUnmarshalBase64(b64, &v); err != nil {
			t.Fatal(err)
		}
		topics = append(topics, v)
	}
	sym, ok := topics[0].GetSym()
	if !ok {
		t.Fatalf("topic 0 is %v, not a symbol", topics[0].Type)
	}
	m := moved{kind: string(sym)}
	addr := func(v xdr.ScVal) string {
		a, ok := v.GetAddress()
		if !ok {
			t.Fatalf("topic is %v, not an address", v.Type)
		}
		s, err := a.String()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	rest := topics[1:]
	switch m.kind {
	case "transfer":
		m.from, m.to, rest = addr(rest[0]), addr(rest[1]), rest[2:]
	case "mint":
		m.to, rest = addr(rest[0]), rest[1:]
	case "burn", "clawback":
		m.from, rest = addr(rest[0]), rest[1:]
	default:
		t.Fatalf("unknown event %q", m.kind)
	}
	if len(rest) != 1 {
		t.Fatalf("%s has %d topics", m.kind, len(topics))
	}
	asset, ok := rest[0].GetStr()
	if !ok {
		t.Fatalf("asset topic is %v, not a string", rest[0].Type)
	}
	m.asset = string(asset)
	var data xdr.ScVal
	if err := xdr.SafeUnmarshalBase64(e.ValueXDR, &data); err != nil {
		t.Fatal(err)
	}
	amountOf := func(v xdr.ScVal) int64 {
		p, ok := v.GetI128()
		if !ok || p.Hi != 0 {
			t.Fatalf("amount is %v", v)
		}
		return int64(p.Lo)
	}
	if mp, ok := data.GetMap(); ok {
		key := func(i int) string { sym, _ := (*mp)[i].Key.GetSym(); return string(sym) }
		if len(*mp) != 2 || key(0) != "amount" || key(1) != "to_muxed_id" {
			t.Fatalf("data map is %v, want {amount, to_muxed_id} in order", data)
		}
		m.amount = amountOf((*mp)[0].Val)
		switch id := (*mp)[1].Val; id.Type {
		case xdr.ScValTypeScvU64:
			m.muxed = uint64(*id.U64)
		case xdr.ScValTypeScvString:
			m.muxed = string(*id.Str)
		case xdr.ScValTypeScvBytes:
			m.muxed = []byte(*id.Bytes)
		default:
			t.Fatalf("to_muxed_id is %v", id.Type)
		}
		return m
	}
	m.amount = amountOf(data)
	return m
}

// summary is the event in a line, with the test's names for addresses:
// "transfer alice→vault 5 USDC".
func (n *testNet) summary(e protocol.EventInfo) string {
	m := decode(n.t, e)
	code, _, _ := strings.Cut(m.asset, ":")
	return fmt.Sprintf("%s %s→%s %d %s", m.kind, n.names[m.from], n.names[m.to], m.amount/1e7, code)
}

func (n *testNet) summaries(events []protocol.EventInfo) []string {
	out := []string{}
	for _, e := range events {
		out = append(out, n.summary(e))
	}
	return out
}
