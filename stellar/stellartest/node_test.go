package stellartest_test

import (
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/stellar/go-stellar-sdk/clients/rpcclient"
	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// lineBalance is the account's trustline balance as the RPC server at rpc
// reports it, and whether it has the line.
func (n *testNet) lineBalance(rpc *rpcclient.Client, address string, asset xdr.Asset) (int64, bool) {
	n.t.Helper()
	key, err := xdr.MarshalBase64(xdr.LedgerKey{Type: xdr.LedgerEntryTypeTrustline,
		TrustLine: &xdr.LedgerKeyTrustLine{AccountId: xdr.MustAddress(address), Asset: asset.ToTrustLineAsset()}})
	if err != nil {
		n.t.Fatal(err)
	}
	resp, err := rpc.GetLedgerEntries(n.ctx, protocol.GetLedgerEntriesRequest{Keys: []string{key}})
	if err != nil {
		n.t.Fatal(err)
	}
	if len(resp.Entries) == 0 {
		return 0, false
	}
	var data xdr.LedgerEntryData
	if err := xdr.SafeUnmarshalBase64(resp.Entries[0].DataXDR, &data); err != nil {
		n.t.Fatal(err)
	}
	return int64(data.TrustLine.Balance), true
}

func (n *testNet) latestOf(rpc *rpcclient.Client) uint32 {
	n.t.Helper()
	l, err := rpc.GetLatestLedger(n.ctx)
	if err != nil {
		n.t.Fatal(err)
	}
	return l.Sequence
}

// TestFakeNodeLags: a node lagging n ledgers answers every read as the
// network stood n ledgers ago — its latest ledger, the vault's balance, a
// sender's sequence number, the events and transactions then — and stays
// n behind as the network moves; a transaction sent through it is relayed
// and shows there n ledgers after it applied.
func TestFakeNodeLags(t *testing.T) {
	is := is.New(t)
	n := newTestNet(t)
	alice := n.account("alice")
	node := n.fake.Node()
	nrpc := rpcclient.NewClient(node.URL, nil)
	defer nrpc.Close()
	start := n.latest() + 1
	// What the network held after each deposit (each minted to alice in
	// its own ledger first).
	type state struct {
		ledger  uint32
		balance int64
		seq     int64
		hash    string
	}
	var states []state
	for i := range 6 {
		hash := n.fake.Deposit(alice.Address(), n.vault, n.usdc, int64(i+1)*1_0000000, "")
		held, _ := n.fake.Balance(n.vault, n.usdc)
		states = append(states, state{n.latest(), held, n.fake.Sequence(alice.Address()), hash})
	}
	latest := n.latest()
	// asOf is the last deposit applied by ledger at.
	asOf := func(at uint32) (then state) {
		for _, s := range states {
			if s.ledger <= at {
				then = s
			}
		}
		return then
	}
	for lag := range uint32(8) {
		node.Lag(lag)
		then := asOf(latest - lag)
		held, _ := n.lineBalance(nrpc, n.vault, n.usdc)
		acct, err := nrpc.LoadAccount(n.ctx, alice.Address())
		is.NoErr(err)
		seq, _ := acct.GetSequenceNumber()
		is.Equal([2]int64{held, seq}, [2]int64{then.balance, then.seq}) // as of lag ledgers ago
	}

	const lag = 3
	node.Lag(lag)
	at := latest - lag
	then := asOf(at)
	is.True(then.ledger != 0 && then != states[len(states)-1])

	is.Equal(n.latestOf(nrpc), at)
	health, err := nrpc.GetHealth(n.ctx)
	is.NoErr(err)
	is.Equal(health.LatestLedger, at)
	fees, err := nrpc.GetFeeStats(n.ctx)
	is.NoErr(err)
	is.Equal(fees.LatestLedger, at)
	held, _ := n.lineBalance(nrpc, n.vault, n.usdc)
	is.Equal(held, then.balance)
	held, _ = n.lineBalance(n.rpc, n.vault, n.usdc)
	is.Equal(held, states[len(states)-1].balance)
	acct, err := nrpc.LoadAccount(n.ctx, alice.Address())
	is.NoErr(err)
	seq, _ := acct.GetSequenceNumber()
	is.Equal(seq, then.seq)

	var want []protocol.EventInfo
	for _, e := range n.fake.Events() {
		if uint32(e.Ledger) >= start && uint32(e.Ledger) <= at {
			want = append(want, e)
		}
	}
	got, _ := n.events(nrpc, start, 5)
	is.Equal(got, want)
	_, err = nrpc.GetEvents(n.ctx, protocol.GetEventsRequest{StartLedger: latest})
	is.True(err != nil) // the node has not seen that ledger

	txs, err := nrpc.GetTransactions(n.ctx, protocol.GetTransactionsRequest{StartLedger: start})
	is.NoErr(err)
	is.Equal(txs.LatestLedger, at)
	is.Equal(txs.Transactions[len(txs.Transactions)-1].Ledger, at) // a mint or a deposit, each in its ledger
	hashes := map[string]bool{}
	for _, tx := range txs.Transactions {
		hashes[tx.TransactionHash] = true
	}
	is.True(hashes[then.hash])
	last := states[len(states)-1].hash
	tx, err := nrpc.GetTransaction(n.ctx, protocol.GetTransactionRequest{Hash: last})
	is.NoErr(err)
	is.Equal(tx.Status, protocol.TransactionStatusNotFound)

	// Sent through the lagging node, a payment applies on the network and
	// reaches the node lag ledgers later.
	n.fake.Trust(alice.Address(), n.usdc, 1_0000000)
	b64, hash := n.signed(alice, n.vault, n.usdc, 1_0000000, nil)
	sent, err := nrpc.SendTransaction(n.ctx, protocol.SendTransactionRequest{Transaction: b64})
	is.NoErr(err)
	is.Equal(sent.Status, "PENDING")
	is.Equal(sent.LatestLedger, n.latest()-1-lag) // the node's latest when it relayed
	tx, err = n.rpc.GetTransaction(n.ctx, protocol.GetTransactionRequest{Hash: hash})
	is.NoErr(err)
	is.Equal(tx.Status, protocol.TransactionStatusSuccess)
	for i := range lag {
		tx, err = nrpc.GetTransaction(n.ctx, protocol.GetTransactionRequest{Hash: hash})
		is.NoErr(err)
		is.Equal(tx.Status, protocol.TransactionStatusNotFound) // lag-i ledgers still to come
		is.Equal(n.latestOf(nrpc), n.latest()-lag)
		n.fake.Advance(time.Second + time.Duration(i))
	}
	tx, err = nrpc.GetTransaction(n.ctx, protocol.GetTransactionRequest{Hash: hash})
	is.NoErr(err)
	is.Equal(tx.Status, protocol.TransactionStatusSuccess)

	// A node behind a prune still holds what the network's window lost.
	n.fake.Prune()
	node.Lag(1)
	tx, err = n.rpc.GetTransaction(n.ctx, protocol.GetTransactionRequest{Hash: last})
	is.NoErr(err)
	is.Equal(tx.Status, protocol.TransactionStatusNotFound)
	tx, err = nrpc.GetTransaction(n.ctx, protocol.GetTransactionRequest{Hash: last})
	is.NoErr(err)
	is.Equal(tx.Status, protocol.TransactionStatusSuccess)

	node.Live()
	is.Equal(n.latestOf(nrpc), n.latest())
	held, _ = n.lineBalance(nrpc, n.vault, n.usdc)
	is.Equal(held, states[len(states)-1].balance+1_0000000)
}

// TestFakeNodeFreezes: a frozen node stays at the ledger it had — a
// lagging one at its lagged ledger — whatever the network does, turns
// unhealthy once its ledger is older than stellar-rpc tolerates, and
// catches up when live again.
func TestFakeNodeFreezes(t *testing.T) {
	is := is.New(t)
	n := newTestNet(t)
	alice := n.account("alice").Address()
	node := n.fake.Node()
	nrpc := rpcclient.NewClient(node.URL, nil)
	defer nrpc.Close()
	n.fake.Deposit(alice, n.vault, n.usdc, 1_0000000, "")
	node.Lag(1)
	node.Freeze()
	frozen := n.latest() - 1
	held, _ := n.lineBalance(nrpc, n.vault, n.usdc)
	events, _ := n.events(nrpc, frozen-5, 100)

	for range 3 {
		n.fake.Deposit(alice, n.vault, n.usdc, 1_0000000, "")
		n.fake.Advance(20 * time.Second)
		is.Equal(n.latestOf(nrpc), frozen)
		still, _ := n.lineBalance(nrpc, n.vault, n.usdc)
		is.Equal(still, held)
		now, _ := n.events(nrpc, frozen-5, 100)
		is.Equal(now, events)
	}
	_, err := n.rpc.GetHealth(n.ctx)
	is.NoErr(err)
	_, err = nrpc.GetHealth(n.ctx)
	is.True(err != nil)
	is.Equal(err.Error(), "[-32603] latency (1m0s) since last known ledger closed is too high (>30s)")

	node.Live()
	is.Equal(n.latestOf(nrpc), n.latest())
	_, err = nrpc.GetHealth(n.ctx)
	is.NoErr(err)
	held, _ = n.lineBalance(nrpc, n.vault, n.usdc)
	is.Equal(held, int64(4_0000000))
}
