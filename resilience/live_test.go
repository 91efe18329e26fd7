package resilience

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"

	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/stellar/stellartest"
)

// TestLiveEndToEnd runs serve -mode live against a fake Stellar network the
// way a self-hoster goes live: the vault's account is funded, payoutd opens
// its trustline, a deposit shows up as the vault's balance, and a payout
// lands on chain once.
func TestLiveEndToEnd(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	fake := stellartest.New(network.TestNetworkPassphrase, time.Now())
	defer fake.Close()
	dir := t.TempDir()
	cli(t, dir, "migrate") // keys never creates a database
	key := cli(t, dir, "keys", "create", "--email", "live@example.com", "--name", "Asha Rao", "--env", "production")
	ratesFile := filepath.Join(dir, "rates.json")
	rateAsOf := time.Now().Add(-time.Hour).UTC().Truncate(time.Second)
	is.NoErr(os.WriteFile(ratesFile, []byte(`{"asOf":"`+rateAsOf.Format(time.RFC3339)+`","rates":{"USD":"83.25"}}`), 0o600))
	p := start(t, dir, "-mode", "live", "-stellar-rpc", fake.URL, "-stellar-sync-interval", "1s", "-rates", ratesFile)

	w := wallet(t, p.URL, key)
	addr := w["address"].(string)
	net := w["network"].(map[string]any)
	is.Equal(net["network"], "testnet")
	is.Equal(net["accountExists"], false) // the user sees what is missing

	fake.Fund(addr, 20_0000000) // friendbot: 2 XLM, the reserve of the account and its trustline and fees
	wait.Until(t, 15*time.Second, "payoutd to open the vault's USDC trustline", func() bool { _, ok := fake.Balance(addr, testUSDC); return ok })
	fake.Trust(addr, testUSDC, 500_0000000) // a 500 USDC deposit
	wait.Until(t, 15*time.Second, "the deposit to reach the vault's balance", func() bool { return wallet(t, p.URL, key)["balance"] == "500.00" })
	net = wallet(t, p.URL, key)["network"].(map[string]any)
	is.Equal(net["trustline"], true)
	is.Equal(net["assetBalance"], "500.0000000")

	dest := keypair.MustRandom().Address()
	fake.Fund(dest, 10_0000000)
	fake.Trust(dest, testUSDC, 0)
	// The operator approves the user's KYC, so the payout may be cross-border.
	submitLiveKYC(t, dir, "live@example.com", []byte("scan"))
	is.True(strings.HasSuffix(cli(t, dir, "kyc", "approve", "live@example.com"), " APPROVED"))
	initiate := func(amount, memo string) string {
		status, _, m := liveCall(t, "POST", p.URL+"/api/v1/payments/initiate", key, map[string]any{
			"amount": amount, "currency": "USD", "destinationAddress": dest, "memo": memo, "counterpartyCountry": "US",
			"counterpartyName": "Acme Corp", "purposeCode": "P0802"})
		is.Equal(status, 201)
		return m["id"].(string)
	}
	confirm := func(id, amount string) (int, http.Header, map[string]any) {
		return liveCall(t, "POST", p.URL+"/api/v1/payments/confirm", key, map[string]any{
			"id": id, "destinationAddress": dest, "amount": amount, "currency": "USD", "vaultId": w["id"]})
	}
	errOf := func(m map[string]any) map[string]any { return m["error"].(map[string]any) }

	t.Run("ErrMemoTooLong", func(t *testing.T) {
		is := is.New(t)
		id := initiate("1.00", strings.Repeat("x", 29)) // initiate accepts it, as in sandbox
		status, _, m := confirm(id, "1.00")
		is.Equal(status, 400)
		is.Equal(errOf(m)["code"], "ERR_VALIDATION")
		is.True(strings.Contains(errOf(m)["fields"].(map[string]any)["memo"].(string), "28 bytes"))
	})
	t.Run("ErrInsufficientFunds", func(t *testing.T) {
		is := is.New(t)
		status, _, m := confirm(initiate("600.00", ""), "600.00")
		is.Equal(status, 400)
		is.Equal(errOf(m)["code"], "ERR_INSUFFICIENT_FUNDS")
	})
	t.Run("OK", func(t *testing.T) {
		is := is.New(t)
		id := initiate("123.45", "INV-42")
		status, _, m := confirm(id, "123.45")
		is.Equal(status, 201)
		wait.Until(t, 15*time.Second, "the payout to complete", func() bool {
			_, _, m = liveCall(t, "GET", p.URL+"/api/v1/payments/payouts/"+id, key, nil)
			return fmt.Sprint(m["status"]) == "COMPLETED" || fmt.Sprint(m["status"]) == "FAILED"
		})
		is.Equal(m["status"], "COMPLETED")
		is.Equal(m["amountInr"], 10277.21) // valued at the live rate from -rates
		got, _ := fake.Balance(dest, testUSDC)
		is.Equal(got, int64(123_4500000))
		is.Equal(fake.Applied(m["settlementRef"].(string)), 1)
		// Settlement facts come from the ledger that applied it.
		tx := m["network"].(map[string]any)
		is.Equal(tx["transactionHash"], m["settlementRef"])
		is.True(tx["ledger"].(float64) > 1000)
		is.Equal(tx["feeChargedXlm"], "0.0000100")
		is.Equal(m["settledAt"], tx["ledgerClosedAt"])
		wait.Until(t, 15*time.Second, "the vault to show the chain balance", func() bool { return wallet(t, p.URL, key)["balance"] == "376.55" })
		// The FIRA carries the live rate's own as-of time and the ledger.
		_, _, fl := liveCall(t, "GET", p.URL+"/api/v1/compliance/fira?paymentId="+id, key, nil)
		items := fl["items"].([]any)
		is.Equal(len(items), 1)
		fira := items[0].(map[string]any)
		is.Equal(fira["rateAsOf"], rateAsOf.Format("2006-01-02T15:04:05.000Z"))
		is.Equal(fira["settledAt"], m["settledAt"])
		is.Equal(fira["network"].(map[string]any)["ledger"], tx["ledger"])
	})
	t.Run("RailUnreachable", func(t *testing.T) {
		is := is.New(t)
		id := initiate("1.00", "")
		fake.SetDown(true)
		defer fake.SetDown(false)
		status, h, m := confirm(id, "1.00")
		is.Equal(status, 503)
		is.Equal(errOf(m)["code"], "ERR_RAIL_UNAVAILABLE")
		is.True(h.Get("Retry-After") != "")
		status, _, m = liveCall(t, "GET", p.URL+"/readyz", "", nil)
		is.Equal(status, 200) // sandbox and reads still work
		is.Equal(m["rail"].(map[string]any)["status"], "unreachable")
	})
}

func TestLiveStartChecks(t *testing.T) {
	t.Parallel()
	fake := stellartest.New(network.TestNetworkPassphrase, time.Now())
	defer fake.Close()
	t.Run("ErrWrongNetwork", func(t *testing.T) {
		is := is.New(t)
		dir := t.TempDir()
		cmd := exec.Command(binary, "serve", "-addr", "127.0.0.1:0", "-db", filepath.Join(dir, "payoutd.db"), "-mode", "live",
			"-stellar-rpc", fake.URL, "-stellar-network", "pubnet")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		is.True(err != nil) // refuses to start
		is.True(strings.Contains(logText(t, stderr.String()), network.PublicNetworkPassphrase))
		is.True(strings.Contains(logText(t, stderr.String()), network.TestNetworkPassphrase))
	})
	t.Run("ErrUnknownAsset", func(t *testing.T) {
		is := is.New(t)
		dir := t.TempDir()
		cmd := exec.Command(binary, "serve", "-addr", "127.0.0.1:0", "-db", filepath.Join(dir, "payoutd.db"), "-mode", "live",
			"-stellar-rpc", fake.URL, "-stellar-assets", "XYZ=ABC:GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		is.True(cmd.Run() != nil)
		is.True(strings.Contains(logText(t, stderr.String()), `unknown currency "XYZ"`))
	})
	t.Run("UnreachableAtStart", func(t *testing.T) {
		is := is.New(t)
		dir := t.TempDir()
		cli(t, dir, "migrate") // keys never creates a database
		key := cli(t, dir, "keys", "create", "--email", "live@example.com", "--name", "Asha Rao", "--env", "production")
		p := start(t, dir, "-mode", "live", "-stellar-rpc", "http://127.0.0.1:1") // nothing listens there
		status, _, m := liveCall(t, "GET", p.URL+"/readyz", "", nil)
		is.Equal(status, 200) // serve starts and serves reads
		is.Equal(m["rail"].(map[string]any)["status"], "unreachable")
		_, _, m = liveCall(t, "POST", p.URL+"/api/v1/payments/initiate", key, map[string]any{
			"amount": "1.00", "currency": "USD", "destinationAddress": crashAddress})
		status, h, m := liveCall(t, "POST", p.URL+"/api/v1/payments/confirm", key, map[string]any{
			"id": m["id"], "destinationAddress": crashAddress, "amount": "1.00", "currency": "USD", "vaultId": wallet(t, p.URL, key)["id"]})
		is.Equal(status, 503)
		is.Equal(m["error"].(map[string]any)["code"], "ERR_RAIL_UNAVAILABLE")
		is.True(h.Get("Retry-After") != "")
	})
	t.Run("ClockBehind", func(t *testing.T) {
		is := is.New(t)
		created := time.Now()
		ahead := stellartest.New(network.TestNetworkPassphrase, created.Add(5*time.Minute)) // its clock stands still
		defer ahead.Close()
		p := start(t, t.TempDir(), "-mode", "live", "-stellar-rpc", ahead.URL)
		_, _, m := liveCall(t, "GET", p.URL+"/readyz", "", nil)
		skew := m["rail"].(map[string]any)["clockSkewSeconds"].(float64)
		want := (time.Since(created) - 5*time.Minute).Seconds()
		is.True(skew <= want+2 && skew >= want-2)
		is.True(strings.Contains(fmt.Sprint(m["degraded"]), "clock"))
	})
	t.Run("NoRPCNamesTheFlag", func(t *testing.T) {
		is := is.New(t)
		dir := t.TempDir()
		cli(t, dir, "migrate") // keys never creates a database
		key := cli(t, dir, "keys", "create", "--email", "live@example.com", "--name", "Asha Rao", "--env", "production")
		p := start(t, dir, "-mode", "live")
		_, _, m := liveCall(t, "POST", p.URL+"/api/v1/payments/initiate", key, map[string]any{
			"amount": "1.00", "currency": "USD", "destinationAddress": crashAddress})
		status, _, m := liveCall(t, "POST", p.URL+"/api/v1/payments/confirm", key, map[string]any{
			"id": m["id"], "destinationAddress": crashAddress, "amount": "1.00", "currency": "USD", "vaultId": wallet(t, p.URL, key)["id"]})
		is.Equal(status, 400)
		e := m["error"].(map[string]any)
		is.Equal(e["code"], "ERR_LIVE_NOT_CONFIGURED")
		is.True(strings.Contains(e["message"].(string), "-stellar-rpc"))
	})
}

// TestLiveRatesURL: a live process reads its INR rates from -rates-url with
// their as-of times; a stale one makes /readyz say why until a fresh one
// arrives.
func TestLiveRatesURL(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	var doc atomic.Value
	doc.Store(`{"asOf":"` + time.Now().Add(-48*time.Hour).UTC().Format(time.RFC3339) + `","rates":{"USD":"83.25"}}`)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(doc.Load().(string))) }))
	defer hs.Close()
	dir := t.TempDir()
	p := start(t, dir, "-mode", "live", "-rates-url", hs.URL, "-rates-refresh", "1s")
	ready := func() map[string]any {
		_, _, m := liveCall(t, "GET", p.URL+"/readyz", "", nil)
		return m
	}
	wait.Until(t, 15*time.Second, "the stale rate to be reported", func() bool {
		rates, _ := ready()["rates"].(map[string]any)
		return rates != nil && fmt.Sprint(rates["stale"]) == "[USD]"
	})
	is.True(strings.Contains(fmt.Sprint(ready()["degraded"]), "-rates-max-age"))
	doc.Store(`{"asOf":"` + time.Now().UTC().Format(time.RFC3339) + `","rates":{"USD":"83.30"}}`)
	wait.Until(t, 15*time.Second, "the fresh rate to be taken", func() bool { return ready()["degraded"] == nil })
}
