package resilience

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/stellar/go-stellar-sdk/network"
	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"

	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/stellar/stellartest"
)

// TestLiveRestoreResolveRelease follows README's "Restore a live
// database" to its end: a backup taken while a payout was being signed is
// restored after the network applied it; the vault is quarantined and the
// payout waits in PROCESSING. The operator resolves the payout with the
// transaction that paid it (found on the network), releases the vault,
// and the books, the chain and `payoutd check` agree; the next payout from
// the vault is signed and paid once.
func TestLiveRestoreResolveRelease(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and restarts processes")
	}
	t.Parallel()
	is := is.New(t)
	fake := stellartest.New(network.TestNetworkPassphrase, time.Now())
	defer fake.Close()
	site := newLiveSite(t, fake)
	p := start(t, site.dir, site.args...)
	w := site.fundedVault(t, p, 100)
	vaultID := w["id"].(string)
	dest := site.destination()

	var mu sync.Mutex
	var paidBy []string // what an explorer would show of the account
	fake.OnSend(func(hash string, applied bool) bool {
		if applied {
			mu.Lock()
			paidBy = append(paidBy, hash)
			mu.Unlock()
		}
		return false
	})
	release := fake.Hold(protocol.GetFeeStatsMethodName)
	id := site.payout(t, p, vaultID, dest, "10.00")
	wait.Until(t, 15*time.Second, "the payout's job to be signing", func() bool { return fake.Waiting(protocol.GetFeeStatsMethodName) > 0 })
	backup := filepath.Join(t.TempDir(), "backup.db")
	cli(t, site.dir, "backup", "--out", backup)
	release()
	wait.Until(t, 15*time.Second, "the payout to complete", func() bool { return site.status(t, p, id) == "COMPLETED" })
	p.Stop(t)
	db := filepath.Join(site.dir, "payoutd.db")
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(db + suffix)
	}
	b, err := os.ReadFile(backup)
	is.NoErr(err)
	is.NoErr(os.WriteFile(db, b, 0o600))
	p = start(t, site.dir, site.args...)
	wait.Until(t, 45*time.Second, "the vault to be quarantined", func() bool { return wallet(t, p.URL, site.key)["quarantine"] != nil })
	is.Equal(site.status(t, p, id), "PROCESSING")

	mu.Lock()
	is.Equal(len(paidBy), 1)
	hash := paidBy[0]
	mu.Unlock()
	out, errOut, code := runBinary(t, site.dir, "payouts", "resolve", id, "--paid", hash, "-db", db, "-stellar-rpc", fake.URL, "--operator", "asha")
	is.Equal(code, 0) // the transaction the explorer shows paid it
	is.True(strings.HasPrefix(out, id+" CONFIRMED"))
	is.Equal(errOut, "")
	wait.Until(t, 15*time.Second, "the resolved payout to complete", func() bool { return site.status(t, p, id) == "COMPLETED" })

	_, errOut, code = runBinary(t, site.dir, "vaults", "release", vaultID, "--note", "the unknown transaction paid "+id, "-db", db)
	is.Equal(code, 0)
	is.Equal(errOut, "")
	is.True(wallet(t, p.URL, site.key)["quarantine"] == nil)
	wait.Until(t, 15*time.Second, "the vault to show the chain's balance", func() bool { return wallet(t, p.URL, site.key)["balance"] == "90.00" })
	is.True(strings.HasPrefix(cli(t, site.dir, "check"), "ok:"))

	next := site.payout(t, p, vaultID, dest, "5.00")
	wait.Until(t, 15*time.Second, "the next payout to complete", func() bool { return site.status(t, p, next) == "COMPLETED" })
	got, _ := fake.Balance(dest, testUSDC)
	is.Equal(got, int64(15_0000000)) // 10.00 once, then 5.00: nothing paid twice
	mu.Lock()
	is.Equal(len(paidBy), 2)
	mu.Unlock()
	is.True(strings.HasPrefix(cli(t, site.dir, "check"), "ok:"))
}
