package resilience

import (
	"fmt"
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

// payoutMemo initiates and confirms a live payout carrying memo (none when
// empty), by which the fake network counts what it paid.
func (s *liveSite) payoutMemo(t *testing.T, p *proc, vaultID, dest, amount, memo string) string {
	t.Helper()
	req := map[string]any{"amount": amount, "currency": "USD", "destinationAddress": dest}
	if memo != "" {
		req["memo"] = memo
	}
	status, _, m := liveCall(t, "POST", p.URL+"/api/v1/payments/initiate", s.key, req)
	if status != 201 {
		t.Fatalf("initiate: %d %v", status, m)
	}
	status, _, m = liveCall(t, "POST", p.URL+"/api/v1/payments/confirm", s.key, map[string]any{
		"id": m["id"], "destinationAddress": dest, "amount": amount, "currency": "USD", "vaultId": vaultID})
	if status != 201 {
		t.Fatalf("confirm: %d %v", status, m)
	}
	return m["id"].(string)
}

// restoreFile puts the backup in place of the database at db, as README's
// "Operating it" says: the file alone, without the old log beside it.
func restoreFile(t *testing.T, backup, db string) {
	t.Helper()
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(db + suffix)
	}
	b, err := os.ReadFile(backup)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(db, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestLiveReadmeRestorePaysOnce follows README's "Restore a live
// database" literally in the case that paid twice before (issue 36): a
// backup is taken while a payout's envelope is in flight; the network
// never applies that envelope, so it expires and the payout fails; a
// retry after the backup pays it. Restored, the database has the payout
// in flight with its old envelope, which it then proves expired (FAILED),
// and finds the retry's transfer out of the vault, which it does not
// know: the vault is quarantined naming it. Steps 4 (resolve --paid), 5
// (release) and 6 (retry --expired) then leave it paid once, the books
// equal to the chain, and payoutd check ok.
func TestLiveReadmeRestorePaysOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and restores processes")
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

	// The network takes the envelope and never applies it.
	fake.Inject(stellartest.Drop)
	id := site.payoutMemo(t, p, vaultID, dest, "10.00", "INV-36")
	var first string
	wait.Until(t, 15*time.Second, "the payout's envelope to be sent", func() bool {
		_, _, m := liveCall(t, "GET", p.URL+"/api/v1/payments/payouts/"+id, site.key, nil)
		first, _ = m["settlementRef"].(string)
		return first != "" && fake.Sends() > 0
	})
	backup := filepath.Join(t.TempDir(), "backup.db")
	cli(t, site.dir, "backup", "--out", backup)

	fake.Advance(3 * time.Minute) // past its time bound: it expired, unpaid
	wait.Until(t, 30*time.Second, "the payout to fail as expired", func() bool { return site.status(t, p, id) == "FAILED" })
	out := cli(t, site.dir, "payouts", "retry", id)
	is.Equal(out, id+" PROCESSING")
	var paidBy string
	wait.Until(t, 30*time.Second, "the retry to complete", func() bool {
		_, _, m := liveCall(t, "GET", p.URL+"/api/v1/payments/payouts/"+id, site.key, nil)
		paidBy, _ = m["settlementRef"].(string)
		return m["status"] == "COMPLETED"
	})
	is.True(paidBy != first)
	is.Equal(fake.PaidBy("INV-36"), []string{paidBy})
	p.Stop(t)

	// 1. Restore as under "Operating it" (check, then serve), and start
	// with the same -stellar-rpc.
	restoreFile(t, backup, db)
	is.True(strings.HasPrefix(cli(t, site.dir, "check"), "ok:"))
	p = start(t, site.dir, site.args...)

	// 2. The vault is quarantined, naming the transfer out it does not
	// know; the payout's own envelope is proven expired.
	var q map[string]any
	wait.Until(t, 45*time.Second, "the vault to be quarantined naming the retry's transaction", func() bool {
		q, _ = wallet(t, p.URL, site.key)["quarantine"].(map[string]any)
		return q != nil && strings.Contains(fmt.Sprint(q["outsideTransfers"]), paidBy)
	})
	outside := q["outsideTransfers"].([]any)[0].(map[string]any)
	is.Equal(outside["destination"], dest)
	is.Equal(outside["amount"], 10.0)
	is.Equal(outside["memo"], "INV-36")
	wait.Until(t, 30*time.Second, "the restored payout's own envelope to expire", func() bool { return site.status(t, p, id) == "FAILED" })
	_, errOut, code := runBinary(t, site.dir, "payouts", "retry", id, "-db", db)
	is.Equal(code, 1) // a retry would pay it twice
	is.True(strings.Contains(errOut, "payouts retry: 1 of 1 not retried"))

	// 3. No gap: the RPC server kept every ledger since the backup.
	is.Equal(wallet(t, p.URL, site.key)["track"].(map[string]any)["status"], "ok")

	// 4. The payout an outside transfer paid is resolved as paid by it.
	out, errOut, code = runBinary(t, site.dir, "payouts", "resolve", id, "--paid", paidBy, "-db", db, "-stellar-rpc", fake.URL, "--operator", "asha")
	is.Equal(errOut, "")
	is.Equal(code, 0)
	is.True(strings.HasPrefix(out, id+" CONFIRMED: transaction "+paidBy))
	wait.Until(t, 30*time.Second, "the resolved payout to complete", func() bool { return site.status(t, p, id) == "COMPLETED" })

	// 5. Release the vault.
	out, errOut, code = runBinary(t, site.dir, "vaults", "release", vaultID, "--note", "the retry after the backup paid "+id, "-db", db)
	is.Equal(errOut, "")
	is.Equal(code, 0)
	is.True(strings.Contains(out, vaultID+" released"))
	is.True(!strings.Contains(out, "withdrawal outside payoutd")) // the transfer is the payout's, not a withdrawal

	// 6. Payouts whose transactions expired meanwhile are retried: this
	// one is paid, so there is none.
	is.True(!strings.Contains(cli(t, site.dir, "payouts", "list", "--expired", "--since", "24h"), id))
	is.Equal(cli(t, site.dir, "payouts", "retry", "--expired", "--since", "24h"), "nothing to retry")

	wait.Until(t, 30*time.Second, "the vault to show the chain's balance", func() bool {
		w := wallet(t, p.URL, site.key)
		return w["quarantine"] == nil && w["balance"] == "90.00"
	})
	is.Equal(fake.Paid("INV-36"), 1)
	got, _ := fake.Balance(dest, testUSDC)
	is.Equal(got, int64(10_0000000))
	is.True(strings.HasPrefix(cli(t, site.dir, "check"), "ok:"))
}
