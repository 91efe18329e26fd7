package resilience

import (
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	"github.com/stellar/go-stellar-sdk/xdr"

	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/stellar/stellartest"
	"github.com/payoutd/payoutd/store/storetest"
)

// TestPayoutsResolveBoundToDatabase: payouts resolve uses the network and
// the assets the database is bound to. The database's first start mapped
// USD to an asset of its own issuer; a payout's transaction applied and
// the server died before it learnt so.
// An operator's resolve with another network's RPC server, or naming
// another network by flag or variable, is refused naming both networks;
// one naming another asset for USD is refused naming both assets; each
// leaves the payout as it was. With no network or asset given, resolve
// judges the payment by the bound asset and it completes, paid once.
func TestPayoutsResolveBoundToDatabase(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	t.Parallel()
	is := is.New(t)
	fake := stellartest.New(network.TestNetworkPassphrase, time.Now())
	defer fake.Close()
	issuer := keypair.MustRandom().Address()
	xyz := xdr.MustNewCreditAsset("XYZ", issuer)
	site := newLiveSite(t, fake)
	db := filepath.Join(site.dir, "payoutd.db")
	p := start(t, site.dir, append(site.args, "-stellar-assets", "USD=XYZ:"+issuer)...)
	w := wallet(t, p.URL, site.key)
	addr, vaultID := w["address"].(string), w["id"].(string)
	fake.Fund(addr, 100_0000000)
	wait.Until(t, 15*time.Second, "the vault's XYZ trustline", func() bool { _, ok := fake.Balance(addr, xyz); return ok })
	fake.Deposit(keypair.MustRandom().Address(), addr, xyz, 100_0000000, "")
	wait.Until(t, 15*time.Second, "the deposit", func() bool { return wallet(t, p.URL, site.key)["balance"] == "100.00" })
	dest := keypair.MustRandom().Address()
	fake.Fund(dest, 10_0000000)
	fake.Trust(dest, xyz, 0)

	// The server dies the moment the network applies the payout, before
	// it learns the outcome.
	var once sync.Once
	fake.OnSend(func(_ string, applied bool) bool {
		if applied {
			once.Do(func() { syscall.Kill(p.Cmd.Process.Pid, syscall.SIGKILL) })
		}
		return false
	})
	id := site.payoutMemo(t, p, vaultID, dest, "12.00", "BOUND-1")
	p.Wait()
	fake.OnSend(nil)
	is.Equal(fake.Paid("BOUND-1"), 1)
	hash := fake.PaidBy("BOUND-1")[0]
	status := func() string {
		var s string
		if err := storetest.Open(t, db).QueryRow("SELECT status FROM payments WHERE id = ?", id).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	is.Equal(status(), "SUBMITTED")

	other := stellartest.New("Private Test Network ; 2026", time.Now())
	defer other.Close()
	resolve := "payouts resolve " + id + " --paid " + hash
	for _, tc := range []struct {
		name  string
		env   []string
		args  string
		names []string
	}{
		{"ErrOtherNetworksRPC", nil, "-stellar-rpc " + other.URL, []string{network.TestNetworkPassphrase, other.Passphrase}},
		{"ErrNetworkFlag", nil, "-stellar-rpc " + fake.Archive() + " -stellar-network pubnet",
			[]string{network.TestNetworkPassphrase, network.PublicNetworkPassphrase}},
		{"ErrNetworkVariable", []string{"PAYOUTD_STELLAR_NETWORK=pubnet"}, "-stellar-rpc " + fake.Archive(),
			[]string{network.TestNetworkPassphrase, network.PublicNetworkPassphrase}},
		{"ErrAssetFlag", nil, "-stellar-rpc " + fake.Archive() + " -stellar-assets USD=USDC:" + testUSDC.GetIssuer(),
			[]string{"XYZ:" + issuer, "USDC:" + testUSDC.GetIssuer()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			args := append(strings.Fields(resolve+" "+tc.args), "-db", db, "--operator", "asha")
			out, errOut, code := runBinaryEnv(t, site.dir, tc.env, args...)
			is.Equal(code, 1)
			is.Equal(out, "")
			for _, n := range tc.names {
				is.True(strings.Contains(errOut, n)) // both named
			}
			is.Equal(status(), "SUBMITTED") // nothing recorded
		})
	}

	// Bound to XYZ, with no asset named: the payment is judged by it.
	out, errOut, code := runBinary(t, site.dir, strings.Fields(resolve+" -stellar-rpc "+fake.URL+" -db "+db)...)
	is.Equal(errOut, "")
	is.Equal(code, 0)
	is.True(strings.HasPrefix(out, id+" CONFIRMED: transaction "+hash))
	p = start(t, site.dir, site.args...) // no asset flag: bound
	wait.Until(t, 30*time.Second, "the resolved payout to complete", func() bool { return site.status(t, p, id) == "COMPLETED" })
	wait.Until(t, 30*time.Second, "the vault to show the chain's balance", func() bool { return wallet(t, p.URL, site.key)["balance"] == "88.00" })
	is.Equal(fake.Paid("BOUND-1"), 1)
	got, _ := fake.Balance(dest, xyz)
	is.Equal(got, int64(12_0000000))
	is.True(strings.HasPrefix(cli(t, site.dir, "check"), "ok:"))
}
