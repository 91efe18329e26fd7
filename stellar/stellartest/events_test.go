package stellartest_test

import (
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/stellar/go-stellar-sdk/keypair"
	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"
	"github.com/stellar/go-stellar-sdk/txnbuild"
	"github.com/stellar/go-stellar-sdk/xdr"
)

// TestFakeAssetEvents: every way an asset moves emits its CAP-67 event on
// the asset's contract, in the transaction's ledger, and it decodes back to
// who, to whom, how much, which asset, and the destination's muxing (an
// M-address's id, else the memo to a plain account).
func TestFakeAssetEvents(t *testing.T) {
	const five = 5_0000000
	for _, tc := range []struct {
		name string
		// act moves five USDC and returns the transaction's hash ("" when
		// the helper does not tell) and the event it should emit.
		act func(n *testNet, alice *keypair.Full) (string, moved)
	}{
		{"Payment", func(n *testNet, alice *keypair.Full) (string, moved) {
			return n.pay(alice, n.vault, n.usdc, five, nil), moved{kind: "transfer", from: alice.Address(), to: n.vault}
		}},
		{"PaymentMemoText", func(n *testNet, alice *keypair.Full) (string, moved) {
			return n.pay(alice, n.vault, n.usdc, five, txnbuild.MemoText("inv-1")),
				moved{kind: "transfer", from: alice.Address(), to: n.vault, muxed: "inv-1"}
		}},
		{"PaymentMemoID", func(n *testNet, alice *keypair.Full) (string, moved) {
			return n.pay(alice, n.vault, n.usdc, five, txnbuild.MemoID(42)),
				moved{kind: "transfer", from: alice.Address(), to: n.vault, muxed: uint64(42)}
		}},
		{"PaymentMemoHash", func(n *testNet, alice *keypair.Full) (string, moved) {
			h := [32]byte{1, 2, 3}
			return n.pay(alice, n.vault, n.usdc, five, txnbuild.MemoHash(h)),
				moved{kind: "transfer", from: alice.Address(), to: n.vault, muxed: h[:]}
		}},
		{"PaymentMemoReturn", func(n *testNet, alice *keypair.Full) (string, moved) {
			h := [32]byte{9}
			return n.pay(alice, n.vault, n.usdc, five, txnbuild.MemoReturn(h)),
				moved{kind: "transfer", from: alice.Address(), to: n.vault, muxed: h[:]}
		}},
		{"PaymentToMuxedIgnoresMemo", func(n *testNet, alice *keypair.Full) (string, moved) {
			m, err := xdr.MuxedAccountFromAccountId(n.vault, 7)
			if err != nil {
				t.Fatal(err)
			}
			return n.pay(alice, m.Address(), n.usdc, five, txnbuild.MemoText("not in the event")),
				moved{kind: "transfer", from: alice.Address(), to: n.vault, muxed: uint64(7)}
		}},
		{"Deposit", func(n *testNet, alice *keypair.Full) (string, moved) {
			return n.fake.Deposit(alice.Address(), n.vault, n.usdc, five, ""), moved{kind: "transfer", from: alice.Address(), to: n.vault}
		}},
		{"DepositMemo", func(n *testNet, alice *keypair.Full) (string, moved) {
			return n.fake.Deposit(alice.Address(), n.vault, n.usdc, five, "invoice 42"),
				moved{kind: "transfer", from: alice.Address(), to: n.vault, muxed: "invoice 42"}
		}},
		{"DepositMuxed", func(n *testNet, alice *keypair.Full) (string, moved) {
			m, err := xdr.MuxedAccountFromAccountId(n.vault, 1<<40)
			if err != nil {
				t.Fatal(err)
			}
			return n.fake.DepositMuxed(alice.Address(), m.Address(), n.usdc, five, ""),
				moved{kind: "transfer", from: alice.Address(), to: n.vault, muxed: uint64(1 << 40)}
		}},
		{"OutsidePayment", func(n *testNet, alice *keypair.Full) (string, moved) {
			return n.fake.OutsidePayment(alice.Address(), n.vault, n.usdc, five), moved{kind: "transfer", from: alice.Address(), to: n.vault}
		}},
		{"TrustIsAMint", func(n *testNet, alice *keypair.Full) (string, moved) {
			n.fake.Trust(n.vault, n.usdc, five)
			return "", moved{kind: "mint", to: n.vault}
		}},
		{"MintWithMemo", func(n *testNet, alice *keypair.Full) (string, moved) {
			return n.pay(n.issuer, n.vault, n.usdc, five, txnbuild.MemoText("grant")), moved{kind: "mint", to: n.vault, muxed: "grant"}
		}},
		{"DepositFromIssuer", func(n *testNet, alice *keypair.Full) (string, moved) {
			hash := n.fake.Deposit(n.issuer.Address(), n.vault, n.usdc, five, "grant")
			if _, line := n.fake.Balance(n.issuer.Address(), n.usdc); line {
				t.Fatal("the issuer was given a line of its own asset")
			}
			return hash, moved{kind: "mint", to: n.vault, muxed: "grant"}
		}},
		{"Burn", func(n *testNet, alice *keypair.Full) (string, moved) {
			return n.pay(alice, n.issuer.Address(), n.usdc, five, txnbuild.MemoText("redeem")), moved{kind: "burn", from: alice.Address()}
		}},
		{"Clawback", func(n *testNet, alice *keypair.Full) (string, moved) {
			return n.fake.Clawback(alice.Address(), n.usdc, five), moved{kind: "clawback", from: alice.Address()}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			n := newTestNet(t)
			alice := keypair.MustRandom()
			n.fake.Fund(alice.Address(), 10_0000000)
			n.fake.Trust(alice.Address(), n.usdc, 100_0000000)
			before := n.latest()

			hash, want := tc.act(n, alice)
			want.asset, want.amount = "USDC:"+n.issuer.Address(), five
			events, _ := n.events(n.rpc, before+1, 100)
			is.Equal(len(events), 1)
			e := events[0]
			is.Equal(decode(t, e), want)
			is.Equal(e.EventType, protocol.EventTypeContract)
			is.Equal(e.ContractID, n.contract(n.usdc))
			if hash != "" {
				is.Equal(e.TransactionHash, hash)
			}
			tx, err := n.rpc.GetTransaction(n.ctx, protocol.GetTransactionRequest{Hash: e.TransactionHash})
			is.NoErr(err)
			is.Equal(tx.Status, protocol.TransactionStatusSuccess)
			is.Equal(uint32(e.Ledger), tx.Ledger)
			is.Equal(e.LedgerClosedAt, time.Unix(tx.LedgerCloseTime, 0).UTC().Format(time.RFC3339))
			is.Equal(e.ID, protocol.Cursor{Ledger: tx.Ledger, Tx: 1, Op: 0, Event: 0}.String())
			is.Equal([2]uint32{e.TxIndex, e.OpIndex}, [2]uint32{1, 0})
			is.Equal(n.fake.Events()[len(n.fake.Events())-1], e) // Events reports what getEvents does
		})
	}
}

// TestFakeNoEventsFromFailures: a transaction that fails moves nothing and
// emits nothing, whichever operation failed.
func TestFakeNoEventsFromFailures(t *testing.T) {
	for _, tc := range []struct {
		name string
		act  func(n *testNet, alice *keypair.Full) string
	}{
		{"DepositWithoutTrustline", func(n *testNet, alice *keypair.Full) string {
			bob := keypair.MustRandom().Address()
			n.fake.Fund(bob, 10_0000000)
			return n.fake.Deposit(alice.Address(), bob, n.usdc, 1_0000000, "")
		}},
		{"DepositToNoAccount", func(n *testNet, alice *keypair.Full) string {
			return n.fake.Deposit(alice.Address(), keypair.MustRandom().Address(), n.usdc, 1_0000000, "")
		}},
		{"PaymentUnderfunded", func(n *testNet, alice *keypair.Full) string {
			return n.pay(alice, n.vault, n.usdc, 1000_0000000, nil)
		}},
		{"ClawbackMoreThanHeld", func(n *testNet, alice *keypair.Full) string {
			return n.fake.Clawback(alice.Address(), n.usdc, 1000_0000000)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			n := newTestNet(t)
			alice := keypair.MustRandom()
			n.fake.Fund(alice.Address(), 10_0000000)
			n.fake.Trust(alice.Address(), n.usdc, 100_0000000)
			before := n.latest()
			hash := tc.act(n, alice)
			tx, err := n.rpc.GetTransaction(n.ctx, protocol.GetTransactionRequest{Hash: hash})
			is.NoErr(err)
			is.Equal(tx.Status, protocol.TransactionStatusFailed)
			events, _ := n.events(n.rpc, before+1, 100)
			is.Equal(len(events), 0)
			held, _ := n.fake.Balance(alice.Address(), n.usdc)
			is.Equal(held, int64(100_0000000))
		})
	}
}
