package resilience

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stellar/go-stellar-sdk/keypair"
	"github.com/stellar/go-stellar-sdk/network"

	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/stellar/stellartest"
	"github.com/payoutd/payoutd/store/storetest"
)

// TestLiveChaos runs live payouts from two vaults through a random sequence
// of what happens around a server: SIGKILLs (some at the moment a send is
// applied or about to be), RPC faults (busy, lost replies, dropped
// transactions, fee refusals, garbage, empty or partial or foreign
// getLedgerEntries answers), deposits from outside, the network's clock
// moving on, backups taken while payouts are in flight, and restores of an
// earlier backup. After every step it
// asserts: no payout was ever paid twice on the network (counted by the
// network itself, by memo, whatever database forgot), the wallet, the
// ledger and the chain agree for every vault not quarantined, and every
// payout is final or visibly waiting for a person (its vault quarantined).
// A quarantined vault is finished as an operator would: its waiting
// payouts the network shows paid are resolved as paid (payoutd payouts
// resolve), then it is released (payoutd vaults release).
//
// The sequence comes from PAYOUTD_CHAOS_SEED (default: the clock; printed,
// and repeated on failure); PAYOUTD_CHAOS_STEPS sets its length (default 8,
// with at least one backup, kill, restore, empty getLedgerEntries answer
// and outside deposit; each kill or restore costs about River's 15 s
// leader lease). Process timing is not seeded: a seed
// replays the same steps, not the same interleavings.
func TestLiveChaos(t *testing.T) {
	if testing.Short() {
		t.Skip("starts, kills and restores processes")
	}
	t.Parallel()
	seed := time.Now().UnixNano()
	if s, err := strconv.ParseInt(os.Getenv("PAYOUTD_CHAOS_SEED"), 10, 64); err == nil {
		seed = s
	}
	steps := 8
	if n, err := strconv.Atoi(os.Getenv("PAYOUTD_CHAOS_STEPS")); err == nil && n > 0 {
		steps = n
	}
	t.Logf("chaos seed %d, %d steps", seed, steps)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("reproduce with PAYOUTD_CHAOS_SEED=%d PAYOUTD_CHAOS_STEPS=%d go test -run TestLiveChaos .", seed, steps)
		}
	})
	c := newChaos(t, rand.New(rand.NewPCG(uint64(seed), 0)))
	required := []string{"backup", "kill", "restore", "empty", "deposit"}
	for i := 0; i < steps; i++ {
		action := c.pick()
		if missing := c.missing(required); len(missing) > 0 && steps-i <= len(missing) {
			action = missing[0]
		}
		c.done[action] = true
		t.Logf("step %d: %s", i+1, action)
		c.do(action)
		c.check(i + 1)
	}
	statuses := map[string]int{}
	for _, p := range c.payouts {
		statuses[c.read().status[p.id]]++
	}
	t.Logf("%d payouts (by status now: %v), %d sends to the network, %d kills, %d restores, %d resolves, %d releases",
		len(c.payouts), statuses, c.fake.Sends(), c.kills, c.restores, c.resolves, c.releases)
}

// chaos is the run's world: the fake network, the server, and every payout
// ever confirmed (whichever database still knows it).
type chaos struct {
	t        *testing.T
	rng      *rand.Rand
	fake     *stellartest.Server
	dir      string
	args     []string
	keys     []string
	vaults   []map[string]any
	good     string // a destination that trusts USDC
	noTrust  string // one that does not: its payouts fail in a ledger
	payouts  []chaosPayout
	backups  []string
	done     map[string]bool
	memo     int
	kills    int
	restores int
	releases int
	resolves int

	mu  sync.Mutex
	cur *proc
}

type chaosPayout struct {
	id, memo string
	vault    int
	dest     string
}

func newChaos(t *testing.T, rng *rand.Rand) *chaos {
	fake := stellartest.New(network.TestNetworkPassphrase, time.Now())
	t.Cleanup(fake.Close)
	c := &chaos{t: t, rng: rng, fake: fake, dir: t.TempDir(), done: map[string]bool{}}
	cli(t, c.dir, "migrate")
	for u := range 2 {
		c.keys = append(c.keys, cli(t, c.dir, "keys", "create", "--email", fmt.Sprintf("chaos%d@example.com", u), "--name", "Chaos Test",
			"--env", "production", "--rate-exempt"))
	}
	rates := filepath.Join(c.dir, "rates.json")
	asOf := fake.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	if err := os.WriteFile(rates, []byte(`{"asOf":"`+asOf+`","rates":{"USD":"83.25"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	c.args = []string{"-mode", "live", "-stellar-rpc", fake.URL, "-stellar-sync-interval", "1s", "-rates", rates, "-job-timeout", "2s"}
	c.cur = start(t, c.dir, c.args...)
	for _, key := range c.keys {
		w := wallet(t, c.cur.URL, key)
		c.vaults = append(c.vaults, w)
		fake.Fund(w["address"].(string), 100_0000000)
	}
	for u, key := range c.keys {
		addr := c.vaults[u]["address"].(string)
		wait.Until(t, 15*time.Second, "the trustline", func() bool { _, ok := fake.Balance(addr, testUSDC); return ok })
		fake.Trust(addr, testUSDC, 500_0000000)
		wait.Until(t, 15*time.Second, "the deposit", func() bool { return wallet(t, c.cur.URL, key)["balance"] == "500.00" })
	}
	c.good, c.noTrust = keypair.MustRandom().Address(), keypair.MustRandom().Address()
	fake.Fund(c.good, 10_0000000)
	fake.Trust(c.good, testUSDC, 0)
	fake.Fund(c.noTrust, 10_0000000)
	return c
}

// pick chooses the next action, weighted.
func (c *chaos) pick() string {
	weighted := []string{"pay", "pay", "pay", "pay", "fault", "fault", "empty", "deposit", "kill", "clock", "backup"}
	if len(c.backups) > 0 {
		weighted = append(weighted, "restore")
	}
	return weighted[c.rng.IntN(len(weighted))]
}

func (c *chaos) missing(required []string) []string {
	var out []string
	for _, a := range required {
		if !c.done[a] {
			out = append(out, a)
		}
	}
	return out
}

func (c *chaos) url() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cur.URL
}

func (c *chaos) do(action string) {
	t := c.t
	switch action {
	case "pay":
		c.pay()
	case "fault":
		switch c.rng.IntN(3) {
		case 0:
			faults := []stellartest.Fault{stellartest.TryAgainLater, stellartest.LoseReply, stellartest.Drop, stellartest.FeeRefused}
			c.fake.Inject(faults[c.rng.IntN(len(faults))])
		case 1:
			entries := []stellartest.EntriesFault{stellartest.EntriesEmpty, stellartest.EntriesFirstOnly, stellartest.EntriesForeign}
			c.fake.InjectEntries(entries[c.rng.IntN(len(entries))])
		default:
			c.fake.Garbage(1 + c.rng.IntN(3))
		}
		c.pay()
	case "empty":
		// The next getLedgerEntries (a sync's or a confirm's) answers
		// with no entries at all, as a node that lost its state does.
		c.fake.InjectEntries(stellartest.EntriesEmpty)
		c.pay()
	case "deposit":
		c.fake.Trust(c.vaults[c.rng.IntN(len(c.vaults))]["address"].(string), testUSDC, int64(1+c.rng.IntN(50))*1_0000000)
	case "clock":
		c.fake.Advance(3 * time.Minute)
	case "backup":
		// Taken while payouts are in flight: a restore of it forgets
		// envelopes the network may then apply.
		c.pay()
		out := filepath.Join(t.TempDir(), fmt.Sprintf("backup-%d.db", len(c.backups)))
		cli(t, c.dir, "backup", "--out", out)
		c.backups = append(c.backups, out)
	case "kill":
		c.kill()
	case "restore":
		c.restore()
	}
}

// pay confirms one to three payouts from a random vault; one in five goes
// where it cannot land. A confirm the server refuses (its vault
// quarantined, a fault at the chain read, funds) leaves nothing to follow.
func (c *chaos) pay() {
	u := c.rng.IntN(len(c.vaults))
	for range 1 + c.rng.IntN(3) {
		c.memo++
		memo, dest := fmt.Sprintf("chaos-%d", c.memo), c.good
		if c.rng.IntN(5) == 0 {
			dest = c.noTrust
		}
		amount := fmt.Sprintf("%d.%02d", 1+c.rng.IntN(9), c.rng.IntN(100))
		status, _, m := liveCall(c.t, "POST", c.url()+"/api/v1/payments/initiate", c.keys[u], map[string]any{
			"amount": amount, "currency": "USD", "destinationAddress": dest, "memo": memo})
		if status != 201 {
			c.t.Fatalf("initiate: %d %v", status, m)
		}
		id := m["id"].(string)
		status, _, m = liveCall(c.t, "POST", c.url()+"/api/v1/payments/confirm", c.keys[u], map[string]any{
			"id": id, "destinationAddress": dest, "amount": amount, "currency": "USD", "vaultId": c.vaults[u]["id"]})
		switch status {
		case 201:
			c.payouts = append(c.payouts, chaosPayout{id: id, memo: memo, vault: u, dest: dest})
		case 400, 409, 503:
			c.t.Logf("confirm %s refused: %v", id, m["error"])
		default:
			c.t.Fatalf("confirm: %d %v", status, m)
		}
	}
}

// kill confirms payouts, then SIGKILLs the server at the next send
// (before or after the network applies it), or at once when nothing is
// sent soon, and starts it again. No request of the test's is in flight
// when it dies.
func (c *chaos) kill() {
	c.pay()
	killed := make(chan struct{}, 1)
	before := c.rng.IntN(2) == 0
	c.fake.OnSend(func(hash string, applied bool) bool {
		if applied == before {
			return false
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		select {
		case killed <- struct{}{}:
			syscall.Kill(c.cur.Cmd.Process.Pid, syscall.SIGKILL)
			return before
		default:
			return false
		}
	})
	select {
	case <-killed:
	case <-time.After(5 * time.Second):
		c.mu.Lock()
		select {
		case killed <- struct{}{}:
			syscall.Kill(c.cur.Cmd.Process.Pid, syscall.SIGKILL)
		default:
		}
		c.mu.Unlock()
	}
	c.fake.OnSend(nil)
	c.cur.Wait()
	c.kills++
	next := start(c.t, c.dir, c.args...)
	c.mu.Lock()
	c.cur = next
	c.mu.Unlock()
}

// restore kills the server, puts a random earlier backup in place of its
// database, and starts it again: the restored database may not know
// transactions the network applied since.
func (c *chaos) restore() {
	backup := c.backups[c.rng.IntN(len(c.backups))]
	c.mu.Lock()
	syscall.Kill(c.cur.Cmd.Process.Pid, syscall.SIGKILL)
	c.cur.Wait()
	c.mu.Unlock()
	db := filepath.Join(c.dir, "payoutd.db")
	for _, suffix := range []string{"", "-wal", "-shm"} {
		os.Remove(db + suffix)
	}
	b, err := os.ReadFile(backup)
	if err != nil {
		c.t.Fatal(err)
	}
	if err := os.WriteFile(db, b, 0o600); err != nil {
		c.t.Fatal(err)
	}
	c.restores++
	next := start(c.t, c.dir, c.args...)
	c.mu.Lock()
	c.cur = next
	c.mu.Unlock()
}

// chaosState is what the current database says of the payouts and vaults.
type chaosState struct {
	status      map[string]string // payout id → status; absent: this database never knew it
	quarantined map[string]bool   // vault id
}

func (c *chaos) read() chaosState {
	db := storetest.Open(c.t, filepath.Join(c.dir, "payoutd.db"))
	st := chaosState{status: map[string]string{}, quarantined: map[string]bool{}}
	rows, err := db.Query("SELECT id, status FROM payments WHERE livemode = 1")
	if err != nil {
		c.t.Fatal(err)
	}
	for rows.Next() {
		var id, status string
		rows.Scan(&id, &status)
		st.status[id] = status
	}
	rows.Close()
	rows, err = db.Query("SELECT vault_id FROM vault_quarantines WHERE released_at IS NULL")
	if err != nil {
		c.t.Fatal(err)
	}
	for rows.Next() {
		var id string
		rows.Scan(&id)
		st.quarantined[id] = true
	}
	rows.Close()
	return st
}

// settled reports every payout this database knows final, or waiting on
// its quarantined vault for a person.
func (c *chaos) settled(st chaosState) (bool, string) {
	for _, p := range c.payouts {
		s, known := st.status[p.id]
		if !known || s == "COMPLETED" || s == "FAILED" || st.quarantined[c.vaults[p.vault]["id"].(string)] {
			continue
		}
		return false, p.id + " " + s
	}
	return true, ""
}

// check asserts the invariants after a step.
func (c *chaos) check(step int) {
	t := c.t
	t.Helper()
	c.noDoublePay(step)
	deadline := time.Now().Add(90 * time.Second)
	var st chaosState
	for {
		st = c.read()
		ok, why := c.settled(st)
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("step %d: not every payout is final or waiting for a person: %s", step, why)
		}
		// A dropped envelope is decided by its time bound: move the
		// network's clock on while payouts wait on it.
		c.fake.Advance(time.Minute)
		time.Sleep(200 * time.Millisecond)
	}
	c.noDoublePay(step)
	for _, p := range c.payouts {
		switch st.status[p.id] {
		case "COMPLETED":
			if c.fake.Paid(p.memo) != 1 {
				t.Fatalf("step %d: %s is COMPLETED but the network paid it %d times", step, p.id, c.fake.Paid(p.memo))
			}
		case "FAILED":
			if c.fake.Paid(p.memo) != 0 {
				t.Fatalf("step %d: %s is FAILED but the network paid it", step, p.id)
			}
		}
	}
	for u, key := range c.keys {
		id, addr := c.vaults[u]["id"].(string), c.vaults[u]["address"].(string)
		if st.quarantined[id] {
			c.maybeRelease(u, st)
			continue
		}
		wait.Until(t, 30*time.Second, fmt.Sprintf("step %d: vault %s's wallet, ledger and chain to agree", step, id), func() bool {
			w := wallet(t, c.url(), key)
			if w["quarantine"] != nil {
				return true // found an anomaly meanwhile: it waits for a person
			}
			chain, _ := c.fake.Balance(addr, testUSDC)
			return w["balance"] == fmt.Sprintf("%d.%02d", chain/1_0000000, chain%1_0000000/100_000) && c.ledgerMatches(id)
		})
	}
	out, err := exec.Command(binary, "check", "-db", filepath.Join(c.dir, "payoutd.db")).CombinedOutput()
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "FAIL") && !strings.Contains(line, "is quarantined") {
			t.Fatalf("step %d: payoutd check: %s", step, line)
		}
	}
	if err != nil && !strings.Contains(string(out), "is quarantined") {
		t.Fatalf("step %d: payoutd check: %v\n%s", step, err, out)
	}
}

// noDoublePay: the network never paid a payout's memo twice.
func (c *chaos) noDoublePay(step int) {
	for _, p := range c.payouts {
		if n := c.fake.Paid(p.memo); n > 1 {
			c.t.Fatalf("step %d: payout %s (memo %s) was paid %d times", step, p.id, p.memo, n)
		}
	}
}

// ledgerMatches: the vault row equals its ledger account.
func (c *chaos) ledgerMatches(vaultID string) bool {
	db := storetest.Open(c.t, filepath.Join(c.dir, "payoutd.db"))
	var balance, ledger int64
	if db.QueryRow("SELECT balance FROM vaults WHERE id = ?", vaultID).Scan(&balance) != nil ||
		db.QueryRow("SELECT balance FROM ledger_accounts WHERE kind = 'vault' AND ref = ?", vaultID).Scan(&ledger) != nil {
		return false
	}
	return balance == ledger
}

// maybeRelease does what an operator who looked at the network would with
// a quarantined vault: each of its payouts waiting to be signed that the
// network paid is resolved as paid by that transaction (payoutd payouts
// resolve), then the vault is released.
func (c *chaos) maybeRelease(u int, st chaosState) {
	id := c.vaults[u]["id"].(string)
	for _, p := range c.payouts {
		if p.vault != u || (st.status[p.id] != "PROCESSING" && st.status[p.id] != "COMPLIANCE_CHECK") {
			continue
		}
		if by := c.fake.PaidBy(p.memo); len(by) == 1 {
			c.t.Logf("%s waits to be signed but %s paid it: resolved as paid", p.id, by[0])
			cli(c.t, c.dir, "payouts", "resolve", p.id, "--paid", by[0], "-stellar-rpc", c.fake.URL)
			c.resolves++
		}
	}
	cli(c.t, c.dir, "vaults", "release", id, "--note", "chaos: checked on the network", "--payouts-checked")
	c.releases++
}
