package resilience

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/stellar/go-stellar-sdk/network"

	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/stellar/stellartest"
)

// TestLiveSplitBrainResolved: a copy of the database (with its master
// key) is served elsewhere against the same network. Before the copy,
// payout A's envelope was sent and never applied, and payout B waited
// behind it to be signed. The copy proves A's envelope expired, pays B,
// and its operator retries A, which it pays too. The original, started
// again beside the copy, proves the same envelope expired (A FAILED),
// still has B waiting, and finds both transfers out of the vault that it
// did not make: the vault is quarantined naming them. A retry of A, and a
// release even with --payouts-checked, are refused naming the transaction
// and the resolve to run; resolved as paid by the copy's transactions,
// both complete, the vault is released, each was paid once, and the
// books equal the chain.
func TestLiveSplitBrainResolved(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two servers on one database's copies")
	}
	t.Parallel()
	is := is.New(t)
	fake := stellartest.New(network.TestNetworkPassphrase, time.Now())
	defer fake.Close()
	site := newLiveSite(t, fake)
	db := filepath.Join(site.dir, "payoutd.db")
	p := start(t, site.dir, site.args...)
	w := site.fundedVault(t, p, 100)
	vaultID := w["id"].(string)
	dest := site.destination()

	fake.Inject(stellartest.Drop)
	a := site.payoutMemo(t, p, vaultID, dest, "10.00", "SPLIT-A")
	wait.Until(t, 15*time.Second, "A's envelope to be sent", func() bool { return fake.Sends() > 0 })
	b := site.payoutMemo(t, p, vaultID, dest, "7.00", "SPLIT-B") // waits behind A's envelope
	wait.Until(t, 15*time.Second, "B to wait behind A's envelope", func() bool { return site.status(t, p, b) == "PROCESSING" })
	p.Stop(t)

	// The copy: the database and its master key, served elsewhere.
	copyDir := t.TempDir()
	copyDB := filepath.Join(copyDir, "payoutd.db")
	cli(t, site.dir, "backup", "--out", copyDB)
	key, err := os.ReadFile(db + ".masterkey")
	is.NoErr(err)
	is.NoErr(os.WriteFile(copyDB+".masterkey", key, 0o600))

	fake.Advance(3 * time.Minute) // A's envelope is past its time bound
	other := start(t, copyDir, site.args...)
	wait.Until(t, 45*time.Second, "the copy to pay B", func() bool { return site.status(t, other, b) == "COMPLETED" })
	wait.Until(t, 30*time.Second, "the copy to fail A as expired", func() bool { return site.status(t, other, a) == "FAILED" })
	is.Equal(cli(t, copyDir, "payouts", "retry", a), a+" PROCESSING")
	wait.Until(t, 30*time.Second, "the copy to pay A", func() bool { return site.status(t, other, a) == "COMPLETED" })
	paidA, paidB := fake.PaidBy("SPLIT-A"), fake.PaidBy("SPLIT-B")
	is.Equal(len(paidA), 1)
	is.Equal(len(paidB), 1)

	// The original, served again beside the copy.
	p = start(t, site.dir, site.args...)
	wait.Until(t, 45*time.Second, "the original to quarantine the vault naming both transfers", func() bool {
		q, _ := wallet(t, p.URL, site.key)["quarantine"].(map[string]any)
		if q == nil {
			return false
		}
		named := q["outsideTransfers"].([]any)
		return len(named) == 2
	})
	wait.Until(t, 30*time.Second, "the original to prove A's envelope expired", func() bool { return site.status(t, p, a) == "FAILED" })
	is.Equal(site.status(t, p, b), "PROCESSING") // waits in the quarantine, unsigned

	_, errOut, code := runBinary(t, site.dir, "payouts", "retry", a, "-db", db)
	is.Equal(code, 1)
	is.True(strings.Contains(errOut, "not retried"))
	out, _, _ := runBinary(t, site.dir, "payouts", "retry", a, "-db", db)
	is.True(strings.Contains(out, "payoutd payouts resolve "+a+" --paid "+paidA[0]))
	out, errOut, code = runBinary(t, site.dir, "vaults", "release", vaultID, "--note", "looked", "--payouts-checked", "-db", db)
	is.Equal(code, 1)
	is.True(strings.Contains(errOut, "payoutd payouts resolve "+b+" --paid "+paidB[0]))

	for id, hash := range map[string]string{a: paidA[0], b: paidB[0]} {
		out, errOut, code = runBinary(t, site.dir, "payouts", "resolve", id, "--paid", hash, "-db", db, "-stellar-rpc", fake.URL)
		is.Equal(errOut, "")
		is.Equal(code, 0)
		is.True(strings.HasPrefix(out, id+" CONFIRMED: transaction "+hash))
	}
	for _, id := range []string{a, b} {
		wait.Until(t, 30*time.Second, id+" to complete on the original", func() bool { return site.status(t, p, id) == "COMPLETED" })
	}
	out, errOut, code = runBinary(t, site.dir, "vaults", "release", vaultID, "--note", "a copy served elsewhere paid "+a+" and "+b, "-db", db)
	is.Equal(errOut, "")
	is.Equal(code, 0)
	is.True(!strings.Contains(out, "withdrawal outside payoutd")) // both transfers are payouts'
	wait.Until(t, 30*time.Second, "the original's vault to show the chain's balance", func() bool {
		w := wallet(t, p.URL, site.key)
		return w["quarantine"] == nil && w["balance"] == "83.00"
	})
	is.Equal(fake.Paid("SPLIT-A"), 1)
	is.Equal(fake.Paid("SPLIT-B"), 1)
	got, _ := fake.Balance(dest, testUSDC)
	is.Equal(got, int64(17_0000000))
	is.True(strings.HasPrefix(cli(t, site.dir, "check"), "ok:"))
}
