package resilience

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/riverqueue/river/rivertype"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"
	protocol "github.com/stellar/go-stellar-sdk/protocols/rpc"

	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/payout"
	"github.com/payoutd/payoutd/stellar/stellartest"
	"github.com/payoutd/payoutd/store/storetest"
)

// liveSite is a live payoutd's database directory, its user's key and the
// serve flags that reach the fake network.
type liveSite struct {
	dir, key string
	args     []string
	fake     *stellartest.Server
}

// newLiveSite makes a database with one live user and a fresh rates file.
func newLiveSite(t *testing.T, fake *stellartest.Server) *liveSite {
	t.Helper()
	dir := t.TempDir()
	cli(t, dir, "migrate") // keys never creates a database
	key := cli(t, dir, "keys", "create", "--email", "chain@example.com", "--name", "Chain Test", "--env", "production", "--rate-exempt")
	rates := filepath.Join(dir, "rates.json")
	asOf := fake.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	if err := os.WriteFile(rates, []byte(`{"asOf":"`+asOf+`","rates":{"USD":"83.25"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	return &liveSite{dir: dir, key: key, fake: fake,
		args: []string{"-mode", "live", "-stellar-rpc", fake.URL, "-stellar-sync-interval", "1s", "-rates", rates, "-job-timeout", "2s"}}
}

// fundedVault funds the user's vault account, waits for payoutd to open
// its trustline, deposits usd dollars and waits for the vault to show them.
func (s *liveSite) fundedVault(t *testing.T, p *proc, usd int64) map[string]any {
	t.Helper()
	w := wallet(t, p.URL, s.key)
	addr := w["address"].(string)
	s.fake.Fund(addr, 100_0000000)
	wait.Until(t, 15*time.Second, "the trustline", func() bool { _, ok := s.fake.Balance(addr, testUSDC); return ok })
	s.fake.Trust(addr, testUSDC, usd*1_0000000)
	want := fmt.Sprintf("%d.00", usd)
	wait.Until(t, 15*time.Second, "the deposit", func() bool { return wallet(t, p.URL, s.key)["balance"] == want })
	return w
}

// payout initiates and confirms a live payout, returning its id.
func (s *liveSite) payout(t *testing.T, p *proc, vaultID, dest, amount string) string {
	t.Helper()
	return s.payoutMemo(t, p, vaultID, dest, amount, "")
}

// destination is a funded account that trusts the test asset: one a
// payout can pay.
func (s *liveSite) destination() string {
	dest := keypair.MustRandom().Address()
	s.fake.Fund(dest, 10_0000000)
	s.fake.Trust(dest, testUSDC, 0)
	return dest
}

func (s *liveSite) status(t *testing.T, p *proc, id string) string {
	t.Helper()
	_, _, m := liveCall(t, "GET", p.URL+"/api/v1/payments/payouts/"+id, s.key, nil)
	return fmt.Sprint(m["status"])
}

// serveFails runs serve expecting it to refuse to start, and returns what
// it said.
func serveFails(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"serve", "-addr", "127.0.0.1:0", "-db", filepath.Join(dir, "payoutd.db")}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("serve exited cleanly; want a refusal")
		}
	case <-time.After(15 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("serve started; want a refusal:\n%s", stderr.String())
	}
	return logText(t, stderr.String())
}

// TestLiveRestoreFromBackup: a backup is taken while a payout is in flight
// (confirmed, its envelope not yet signed); the running server then signs
// it and the network applies it. Restored as the README says and
// restarted, the database does not know that transaction: payoutd must
// not sign the payout again. It finds the vault account's sequence number
// above every one it stored, quarantines the vault and signs nothing; the
// wallet view, /readyz, payoutd check and an event say which vault and
// why, and a release is refused while the payout waits to be signed. An
// operator then resolves the payout as paid by the transaction the network
// holds and releases the vault: the books meet the chain, and the vault
// pays again.
func TestLiveRestoreFromBackup(t *testing.T) {
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

	// The payout's job waits inside signing (the fee bid is asked before
	// anything is stored) while the backup is taken.
	release := fake.Hold(protocol.GetFeeStatsMethodName)
	id := site.payout(t, p, vaultID, dest, "10.00")
	wait.Until(t, 15*time.Second, "the payout's job to be signing", func() bool { return fake.Waiting(protocol.GetFeeStatsMethodName) > 0 })
	backup := filepath.Join(t.TempDir(), "backup.db")
	cli(t, site.dir, "backup", "--out", backup)
	release()
	wait.Until(t, 15*time.Second, "the payout to complete", func() bool { return site.status(t, p, id) == "COMPLETED" })
	paid, _ := fake.Balance(dest, testUSDC)
	is.Equal(paid, int64(10_0000000))
	applied := fake.AppliedTotal()
	_, _, before := liveCall(t, "GET", p.URL+"/api/v1/payments/payouts/"+id, site.key, nil)
	hash := before["settlementRef"].(string) // what an operator finds on an explorer

	// Restore as the README says: stop, put the backup in place, start.
	p.Stop(t)
	db := filepath.Join(site.dir, "payoutd.db")
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(db + suffix)
	}
	b, err := os.ReadFile(backup)
	is.NoErr(err)
	is.NoErr(os.WriteFile(db, b, 0o600))
	sends := fake.Sends()
	p = start(t, site.dir, site.args...)

	is.Equal(site.status(t, p, id), "PROCESSING") // the backup's view of it
	var q map[string]any
	// The restored file holds the old process's River leadership and
	// running jobs: the new one waits out the lease (15 s) before its
	// periodic sync and the rescue of the payout's job.
	wait.Until(t, 45*time.Second, "the vault to be quarantined", func() bool {
		q, _ = wallet(t, p.URL, site.key)["quarantine"].(map[string]any)
		return q != nil
	})
	is.True(strings.Contains(fmt.Sprint(q["reasons"]), "unknown_sequence"))
	is.Equal(q["unknownTransactions"], 1.0)
	is.Equal(q["shortfall"], "10.00")
	is.True(strings.Contains(q["description"].(string), "payoutd vaults release "+vaultID))
	is.Equal(q["unknownTransactionHashes"], []any{hash}) // the transaction that paid it, named

	// The payout's job has run against the quarantined vault and waits.
	sqlDB := storetest.Open(t, db)
	wait.Until(t, 45*time.Second, "the payout's job to wait on the quarantine", func() bool {
		advance, err := sqlDB.JobsOfKind(payout.AdvanceArgs{}.Kind())
		is.NoErr(err)
		mine := storetest.Where(t, advance, func(a payout.AdvanceArgs) bool { return a.PaymentID == id })
		return len(mine) > 0 && mine[len(mine)-1].State == rivertype.JobStateScheduled
	})
	is.Equal(site.status(t, p, id), "PROCESSING")
	is.Equal(fake.Sends(), sends) // nothing signed, nothing sent
	is.Equal(fake.AppliedTotal(), applied)
	paid, _ = fake.Balance(dest, testUSDC)
	is.Equal(paid, int64(10_0000000)) // paid once

	_, _, ready := liveCall(t, "GET", p.URL+"/readyz", "", nil)
	is.True(strings.Contains(fmt.Sprint(ready["quarantinedVaults"]), vaultID))
	is.True(strings.Contains(fmt.Sprint(ready["degraded"]), "quarantined"))
	_, _, events := liveCall(t, "GET", p.URL+"/api/v1/events?type=vault.quarantined", site.key, nil)
	is.Equal(len(events["items"].([]any)), 1)

	out, err := exec.Command(binary, "check", "-db", db).CombinedOutput()
	is.True(err != nil) // check fails while a vault waits for a person
	is.True(strings.Contains(string(out), vaultID))
	out, err = exec.Command(binary, "vaults", "release", vaultID, "--note", "looked", "-db", db).CombinedOutput()
	is.True(err != nil) // the payout would be signed again
	is.True(strings.Contains(string(out), id))

	// The person finishes it: the payout is resolved as paid by the
	// transaction the network holds, then the vault released. The books
	// meet the chain and the vault pays again, once.
	cli(t, site.dir, "payouts", "resolve", id, "--paid", hash, "-stellar-rpc", fake.URL)
	wait.Until(t, 30*time.Second, "the resolved payout to complete", func() bool { return site.status(t, p, id) == "COMPLETED" })
	cli(t, site.dir, "vaults", "release", vaultID, "--note", "the restored backup missed "+hash+", resolved as paid")
	wait.Until(t, 30*time.Second, "the released vault to meet the chain", func() bool {
		w := wallet(t, p.URL, site.key)
		return w["quarantine"] == nil && w["balance"] == "90.00"
	})
	next := site.payout(t, p, vaultID, dest, "5.00")
	wait.Until(t, 30*time.Second, "a payout from the released vault", func() bool { return site.status(t, p, next) == "COMPLETED" })
	paid, _ = fake.Balance(dest, testUSDC)
	is.Equal(paid, int64(15_0000000)) // 10.00 once, then 5.00
	cli(t, site.dir, "check")
}

// TestLiveNetworkBound: the first live start binds the database to its
// network and each currency's asset; a later start against another
// network, or with another asset for a currency, refuses, naming both.
func TestLiveNetworkBound(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	fake := stellartest.New(network.TestNetworkPassphrase, time.Now())
	defer fake.Close()
	site := newLiveSite(t, fake)
	p := start(t, site.dir, site.args...)
	p.Stop(t)

	const other = "Private Test Network ; 2026"
	otherNet := stellartest.New(other, time.Now())
	defer otherNet.Close()
	said := serveFails(t, site.dir, "-mode", "live", "-stellar-rpc", otherNet.URL, "-stellar-network", other)
	is.True(strings.Contains(said, network.TestNetworkPassphrase))
	is.True(strings.Contains(said, other))

	const issuer = "GDUKMGUGDZQK6YHYA5Z6AY2G4XDSZPSZ3SW5UN3ARVMO6QSRDWP5YLEX"
	said = serveFails(t, site.dir, "-mode", "live", "-stellar-rpc", fake.URL, "-stellar-assets", "USD=USDC:"+issuer)
	is.True(strings.Contains(said, "USDC:"+issuer))
	is.True(strings.Contains(said, "USDC:"+string(testUSDC.GetIssuer())))

	start(t, site.dir, site.args...) // the bound network still starts
}
