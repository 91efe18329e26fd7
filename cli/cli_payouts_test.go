package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"

	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/stellar/stellartest"
)

// liveOperatorSetup is a live payoutd against a fake network with two
// users, each with a funded vault, and a destination that trusts USDC.
type liveOperatorSetup struct {
	fake  *stellartest.Server
	dir   string
	args  []string
	keys  [2]string
	vault [2]map[string]any
	dest  string
	// started is when the fake network's clock read the local clock.
	started time.Time
}

// newLiveOperatorSetup starts it, the first start with the extra flags.
func newLiveOperatorSetup(t *testing.T, extra ...string) (*liveOperatorSetup, *proc) {
	t.Helper()
	s := &liveOperatorSetup{fake: stellartest.New(network.TestNetworkPassphrase, time.Now()), dir: t.TempDir(), started: time.Now()}
	t.Cleanup(s.fake.Close)
	cli(t, s.dir, "migrate")
	ratesFile := filepath.Join(s.dir, "rates.json")
	if err := os.WriteFile(ratesFile, []byte(`{"asOf":"`+time.Now().UTC().Format(time.RFC3339)+`","rates":{"USD":"83.25"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s.args = []string{"-mode", "live", "-stellar-rpc", s.fake.URL, "-stellar-sync-interval", "1s", "-rates", ratesFile}
	for u := range s.keys {
		s.keys[u] = cli(t, s.dir, "keys", "create", "--email", fmt.Sprintf("op%d@example.com", u), "--name", "Asha Rao", "--env", "production", "--rate-exempt")
	}
	p := start(t, s.dir, append(s.args, extra...)...)
	for u, key := range s.keys {
		s.vault[u] = wallet(t, p.URL, key)
		addr := s.vault[u]["address"].(string)
		s.fake.Fund(addr, 100_0000000)
		wait.Until(t, 15*time.Second, "the vault's trustline", func() bool { _, ok := s.fake.Balance(addr, testUSDC); return ok })
		s.fake.Trust(addr, testUSDC, 500_0000000)
		wait.Until(t, 15*time.Second, "the deposit", func() bool { return wallet(t, p.URL, key)["balance"] == "500.00" })
	}
	dest := keypair.MustRandom().Address()
	s.fake.Fund(dest, 10_0000000)
	s.fake.Trust(dest, testUSDC, 0)
	s.dest = dest
	return s, p
}

// pay initiates and confirms a domestic live payout from user u's vault.
func (s *liveOperatorSetup) pay(t *testing.T, p *proc, u int, amount, memo, memoType string) string {
	t.Helper()
	body := map[string]any{"amount": amount, "currency": "USD", "destinationAddress": s.dest, "memo": memo}
	if memoType != "" {
		body["memoType"] = memoType
	}
	status, m := post(t, p.URL+"/api/v1/payments/initiate", s.keys[u], body)
	if status != 201 {
		t.Fatalf("initiate: %d %v", status, m)
	}
	status, m = post(t, p.URL+"/api/v1/payments/confirm", s.keys[u], map[string]any{
		"id": m["id"], "destinationAddress": s.dest, "amount": amount, "currency": "USD", "vaultId": s.vault[u]["id"]})
	if status != 201 {
		t.Fatalf("confirm: %d %v", status, m)
	}
	return m["id"].(string)
}

// payment reads a payout through the API.
func (s *liveOperatorSetup) payment(t *testing.T, p *proc, u int, id string) map[string]any {
	t.Helper()
	_, _, m := liveCall(t, "GET", p.URL+"/api/v1/payments/payouts/"+id, s.keys[u], nil)
	return m
}

func (s *liveOperatorSetup) waitStatus(t *testing.T, p *proc, u int, id, status string) map[string]any {
	t.Helper()
	var m map[string]any
	wait.Until(t, 30*time.Second, id+" to be "+status, func() bool { m = s.payment(t, p, u, id); return m["status"] == status })
	return m
}

// operator runs `payoutd payouts ARGS` as operator asha, with the RPC
// server at rpc, and returns its stdout, stderr and exit code.
func (s *liveOperatorSetup) operator(t *testing.T, rpc string, args ...string) (string, string, int) {
	t.Helper()
	return runBinary(t, s.dir, append(append([]string{"payouts"}, args...),
		"-db", filepath.Join(s.dir, "payoutd.db"), "-stellar-rpc", rpc, "--operator", "asha")...)
}

// TestPayoutsResolvePaid: a payout whose transaction applied while
// payoutd was off for longer than the RPC server keeps transactions stays
// UNKNOWN and blocks its vault (the wallet view and /readyz say so). The
// operator cannot fail it as unpaid, nor settle it with a hash that is not
// its payment; with the right hash, proven by an RPC server with full
// history, it settles and completes, paid once, audited as the operator.
func TestPayoutsResolvePaid(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	s, p := newLiveOperatorSetup(t)
	// The network applies the transaction and the reply is lost; the
	// network is then out of reach until payoutd stops.
	var once sync.Once
	s.fake.OnSend(func(hash string, applied bool) bool {
		if applied {
			// The hook runs under the fake's lock: go down once it is let go.
			once.Do(func() { go s.fake.SetDown(true) })
		}
		return false
	})
	before := s.fake.AppliedTotal() // the vaults' trustlines
	id := s.pay(t, p, 0, "12.00", "0042", "text")
	wait.Until(t, 15*time.Second, "the transaction to apply", func() bool { return s.fake.AppliedTotal() == before+1 })
	p.Stop(t)
	s.fake.Advance(48 * time.Hour) // payoutd is off for two days
	s.fake.Prune()                 // longer than the RPC server keeps transactions
	s.fake.SetDown(false)
	p = start(t, s.dir, s.args...)

	m := s.waitStatus(t, p, 0, id, "UNKNOWN")
	hash := m["settlementRef"].(string)
	is.Equal(m["memoType"], "text")
	blocked := wallet(t, p.URL, s.keys[0])["blocked"].(map[string]any)
	is.Equal(blocked["paymentId"], id)
	is.Equal(blocked["transaction"], hash)
	_, _, ready := liveCall(t, "GET", p.URL+"/readyz", "", nil)
	is.Equal(ready["blocked"].([]any)[0].(map[string]any)["paymentId"], id)
	is.True(wallet(t, p.URL, s.keys[1])["blocked"] == nil) // the other user's vault is not

	list := cli(t, s.dir, "payouts", "list")
	is.True(strings.Contains(list, id+"  UNKNOWN"))
	show := cli(t, s.dir, "payouts", "show", id)
	is.True(strings.Contains(show, hash))
	is.True(strings.Contains(show, `"0042" (text)`))

	for _, tc := range []struct {
		name, rpc string
		args      []string
		why       string
	}{
		{"ErrUnpaidMayHaveApplied", s.fake.URL, []string{"--unpaid"}, "may have applied in a ledger this server no longer keeps"},
		{"ErrUnknownHash", s.fake.Archive(), []string{"--paid", strings.Repeat("0", 64)}, "is not on the network"},
		{"ErrHistoryGone", s.fake.URL, []string{"--paid", hash}, "is not on the network as far as this RPC server knows"},
		{"ErrNoRPC", "", []string{"--paid", hash}, "give -stellar-rpc"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			out, errOut, code := s.operator(t, tc.rpc, append([]string{"resolve", id}, tc.args...)...)
			is.Equal(code, 1)
			is.Equal(out, "")
			is.True(strings.Contains(errOut, tc.why))
			is.Equal(s.payment(t, p, 0, id)["status"], "UNKNOWN")
		})
	}

	out, errOut, code := s.operator(t, s.fake.Archive(), "resolve", id, "--paid", hash)
	is.Equal(code, 0)
	is.True(strings.HasPrefix(out, id+" CONFIRMED: transaction "+hash+" applied in ledger"))
	is.Equal(errOut, "")
	m = s.waitStatus(t, p, 0, id, "COMPLETED")
	is.Equal(m["amountInr"], 999.0) // valued by the server's live rate
	is.Equal(s.fake.Applied(hash), 1)
	is.True(wallet(t, p.URL, s.keys[0])["blocked"] == nil)
	_, _, audit := liveCall(t, "GET", p.URL+"/api/v1/compliance/audit?resourceId="+id+"&action=payment.resolved", s.keys[0], nil)
	is.Equal(audit["items"].([]any)[0].(map[string]any)["actor"], "operator:asha")
	// Two days off left a gap in each vault's movements; an RPC server
	// with the history closes it.
	for _, key := range s.keys {
		w := wallet(t, p.URL, key)
		track := w["track"].(map[string]any)
		is.Equal(track["status"], "gap")
		out := cli(t, s.dir, "vaults", "resync", w["id"].(string), "--from-ledger", fmt.Sprint(track["gapFromLedger"]), "-stellar-rpc", s.fake.Archive())
		is.True(strings.Contains(out, "every movement is recorded and adds up to the balance on the network"))
	}
	is.True(strings.HasPrefix(cli(t, s.dir, "check"), "ok: audit chain intact, books balanced"))
}

// TestPayoutsResolveUnpaidAndRetryExpired: two payouts whose transactions
// the network dropped. The operator cannot fail one as unpaid while its
// time bound has not passed; with payoutd off past it, the proof holds and
// it fails, its funds released; the other expires by itself at the next
// start. Both are retried in one command and complete, each paid once.
func TestPayoutsResolveUnpaidAndRetryExpired(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	// Transactions valid for 10 s, so that the network's clock, moved
	// past them, stays within the 2 minutes of the ones signed at the next
	// start.
	s, p := newLiveOperatorSetup(t, "-stellar-tx-timeout", "10s")
	s.fake.Inject(stellartest.Drop, stellartest.Drop)
	first := s.pay(t, p, 0, "10.00", "42", "")
	second := s.pay(t, p, 1, "11.00", "", "")
	m := s.waitStatus(t, p, 0, first, "UNKNOWN")
	is.Equal(m["memoType"], "id")
	s.waitStatus(t, p, 1, second, "UNKNOWN")

	_, errOut, code := s.operator(t, s.fake.URL, "resolve", first, "--unpaid")
	is.Equal(code, 1)
	is.True(strings.Contains(errOut, "may still apply until its time bound"))

	p.Stop(t)
	s.fake.Advance(time.Since(s.started) + 11*time.Second) // past both time bounds while payoutd is off
	out, errOut, code := s.operator(t, s.fake.URL, "resolve", first, "--unpaid")
	is.Equal(code, 0)
	is.Equal(errOut, "")
	is.True(strings.HasPrefix(out, first+" FAILED: its time bound"))

	p = start(t, s.dir, s.args...)
	m = s.waitStatus(t, p, 1, second, "FAILED") // proven by payoutd itself
	is.True(strings.HasPrefix(m["failedReason"].(string), "SETTLEMENT_EXPIRED"))
	m = s.payment(t, p, 0, first)
	is.True(strings.HasPrefix(m["failedReason"].(string), "SETTLEMENT_EXPIRED"))
	is.True(strings.Contains(m["failedReason"].(string), "proven for an operator"))
	is.Equal(wallet(t, p.URL, s.keys[0])["reserved"], "0.00") // its funds are free

	list := cli(t, s.dir, "payouts", "list", "--expired", "--since", "1h")
	is.True(strings.Contains(list, first) && strings.Contains(list, second))
	_, errOut, code = s.operator(t, s.fake.URL, "retry", "--expired")
	is.Equal(code, 1)
	is.True(strings.Contains(errOut, "--expired needs --since"))
	out, _, code = s.operator(t, s.fake.URL, "retry", "--expired", "--since", "1h")
	is.Equal(code, 0)
	is.Equal(out, first+" PROCESSING\n"+second+" PROCESSING\n")
	for u, id := range []string{first, second} {
		m = s.waitStatus(t, p, u, id, "COMPLETED")
		is.Equal(s.fake.Applied(m["settlementRef"].(string)), 1)
	}
	is.Equal(s.fake.AppliedTotal(), 2+2) // two trustlines, two payouts: nothing paid twice
	_, _, audit := liveCall(t, "GET", p.URL+"/api/v1/compliance/audit?resourceId="+first+"&action=payment.processing", s.keys[0], nil)
	var actors []string
	for _, it := range audit["items"].([]any) {
		actors = append(actors, it.(map[string]any)["actor"].(string))
	}
	is.True(slices.Contains(actors, "operator:asha")) // the retry, beside the compliance step's move
	is.True(strings.HasPrefix(cli(t, s.dir, "check"), "ok: audit chain intact, books balanced"))
}
