package stellartest_test

import (
	"testing"

	"github.com/matryer/is"
	"github.com/stellar/go-stellar-sdk/keypair"

	"github.com/payoutd/payoutd/stellar/stellartest"
)

// TestFakeMovements: Movements lists each movement of the asset to or
// from the account once, in order, with its direction, amount and memo,
// pruned or not; another asset's, another account's and a failed
// transaction's are not listed. Their sum is the account's balance.
func TestFakeMovements(t *testing.T) {
	is := is.New(t)
	n := newTestNet(t)
	alice := keypair.MustRandom().Address()
	n.fake.Trust(n.vault, n.usdc, 50_0000000)                          // a mint
	dep := n.fake.Deposit(alice, n.vault, n.usdc, 12_3400000, "INV-7") // a transfer in
	n.fake.Deposit(alice, n.vault, n.eurc, 3_0000000, "")              // another asset
	n.fake.Prune()
	out := n.fake.OutsidePayment(n.vault, alice, n.usdc, 2_0000000) // a transfer out
	claw := n.fake.Clawback(n.vault, n.usdc, 1_0000000)
	n.fake.Clawback(n.vault, n.usdc, 1000_0000000) // fails: moves nothing
	n.fake.Deposit(alice, n.account("other").Address(), n.usdc, 1_0000000, "")

	got := n.fake.Movements(n.vault, n.usdc)
	is.Equal(len(got), 4)
	is.Equal([]bool{got[0].In, got[1].In, got[2].In, got[3].In}, []bool{true, true, false, false})
	is.Equal(got[1], stellartest.Movement{EventID: got[1].EventID, Hash: dep, Ledger: got[1].Ledger, In: true, Stroops: 12_3400000, Memo: "INV-7"})
	is.Equal([]string{got[2].Hash, got[3].Hash}, []string{out, claw})
	var sum int64
	for i, m := range got {
		if i > 0 {
			is.True(m.Ledger > got[i-1].Ledger)
		}
		if m.In {
			sum += m.Stroops
		} else {
			sum -= m.Stroops
		}
	}
	held, _ := n.fake.Balance(n.vault, n.usdc)
	is.Equal(sum, held)
	is.Equal(n.fake.Latest(), got[3].Ledger+2) // the failed clawback and the other deposit came after
}
