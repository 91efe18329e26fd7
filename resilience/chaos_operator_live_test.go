package resilience

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// operate does what README tells a person to do with what waits for one,
// looking at the network as an explorer shows it (the fake's PaidBy) and
// proving with an RPC server that keeps full history; it reports whether
// it did anything. Gaps are resynced first (a release refuses a vault
// with one); then payouts the network shows paid are resolved as paid
// (UNKNOWN ones, and those waiting in a quarantined vault, FAILED ones
// included), UNKNOWN ones it shows unpaid resolved as unpaid, flagged ones
// resumed; quarantined vaults are released; and now and then the payouts
// that expired are retried.
func (c *chaos) operate() bool {
	st := c.read()
	acted := false
	for u := range c.vaults {
		if tr := st.tracks[c.vaultID(u)]; tr.gap() {
			c.t.Logf("vault %s misses ledgers %d to %d: resynced", c.vaultID(u), tr.gapFrom, tr.gapTo)
			out := c.operator("vaults", "resync", c.vaultID(u), "--from-ledger", fmt.Sprint(tr.gapFrom), "-stellar-rpc", c.archive)
			if !strings.Contains(out, "every movement is recorded and adds up to the balance on the network") {
				c.t.Fatalf("vaults resync %s: %s", c.vaultID(u), out)
			}
			c.resyncs++
			acted = true
		}
	}
	for _, p := range c.payouts {
		s := st.status[p.id]
		waits := s == "UNKNOWN" || st.quarantined[c.vaultID(p.vault)] && (s == "PROCESSING" || s == "COMPLIANCE_CHECK" || s == "FAILED")
		switch by := c.fake.PaidBy(p.memo); {
		case !waits:
		case len(by) == 1:
			c.resolve(p, "--paid", by[0])
			acted = true
		case s == "UNKNOWN":
			c.resolve(p, "--unpaid")
			acted = true
		}
		if st.flagged[p.id] {
			c.t.Logf("%s was flagged (%s): resumed", p.id, s)
			c.operator("payouts", "retry", p.id, "--operator", "chaos")
			acted = true
		}
	}
	st = c.read()
	for u := range c.vaults {
		if id := c.vaultID(u); st.quarantined[id] {
			c.t.Logf("vault %s is quarantined: released", id)
			c.operator("vaults", "release", id, "--note", "chaos: checked on the network", "--payouts-checked")
			c.releases++
			acted = true
		}
	}
	expired := false
	for _, reason := range st.reason {
		expired = expired || strings.HasPrefix(reason, "SETTLEMENT_EXPIRED")
	}
	if expired && c.rng.IntN(2) == 0 {
		out, errOut, code := runBinary(c.t, c.dir, "payouts", "retry", "--expired", "--since", "24h", "-db", filepath.Join(c.dir, "payoutd.db"))
		if code != 0 {
			c.t.Logf("payouts retry --expired: %s %s", out, errOut)
		}
		if n := strings.Count(out, " PROCESSING\n"); n > 0 {
			c.retries += n
			acted = true
		}
	}
	return acted
}

// operator runs a payoutd command that must succeed and returns its
// output.
func (c *chaos) operator(args ...string) string {
	c.t.Helper()
	out, errOut, code := runBinary(c.t, c.dir, append(args, "-db", filepath.Join(c.dir, "payoutd.db"))...)
	if code != 0 {
		c.t.Fatalf("payoutd %v: %s %s", args, out, errOut)
	}
	return out
}

// resolve proves p paid or unpaid with the archive. The server may finish
// p meanwhile; an unpaid proof may need the network's clock past p's time
// bound: the clock is moved on and it is asked again.
func (c *chaos) resolve(p chaosPayout, how ...string) {
	c.t.Helper()
	args := append(append([]string{"payouts", "resolve", p.id}, how...), "-stellar-rpc", c.archive, "--operator", "chaos",
		"-db", filepath.Join(c.dir, "payoutd.db"))
	for range 5 {
		out, errOut, code := runBinary(c.t, c.dir, args...)
		if code == 0 {
			c.t.Logf("%s resolved %s: %s", p.id, how[0], strings.TrimSpace(out))
			c.resolves++
			return
		}
		switch s := c.read().status[p.id]; {
		case s == "COMPLETED" || s == "CONFIRMED" || s == "FAILED" && how[0] == "--unpaid":
			return // the server got there first
		case strings.Contains(errOut, "may still apply until its time bound"):
			c.fake.Advance(3 * time.Minute)
		default:
			c.t.Fatalf("payoutd payouts resolve %s %v (%s): %s %s", p.id, how, s, out, errOut)
		}
	}
	c.t.Fatalf("payoutd payouts resolve %s %v: still unproven", p.id, how)
}

// finish has the person finish everything that waits, and asserts that
// every payout is then final, nothing was paid twice, and every deposit
// to each vault is booked once.
func (c *chaos) finish() {
	for round := 0; ; round++ {
		acted := c.operate()
		c.check(0)
		st := c.read()
		open := ""
		for _, p := range c.payouts {
			if s, known := st.status[p.id]; known && s != "COMPLETED" && s != "FAILED" {
				open = p.id + " " + s
			}
		}
		for id := range st.quarantined {
			open = "vault " + id + " quarantined"
		}
		for id, tr := range st.tracks {
			if tr.gap() {
				open = "vault " + id + " has a gap"
			}
		}
		if open == "" && !acted {
			break
		}
		if round == 10 {
			c.t.Fatalf("still waiting after the operator's last round: %s", open)
		}
	}
	for _, p := range c.payouts {
		if c.fake.Paid(p.memo) > 1 {
			c.doubles++
		}
	}
	for u, key := range c.keys {
		listed := map[string]int{}
		after := ""
		for {
			_, _, page := liveCall(c.t, "GET", c.url()+"/api/v1/deposits?limit=100&vaultId="+c.vaultID(u)+after, key, nil)
			for _, it := range page["items"].([]any) {
				listed[it.(map[string]any)["transactionHash"].(string)]++
			}
			if page["hasMore"] != true {
				break
			}
			after = "&after=" + page["nextCursor"].(string)
		}
		for _, m := range c.fake.Movements(c.vaultAddr(u), testUSDC) {
			switch n := listed[m.Hash]; {
			case !m.In:
			case n == 0:
				c.missingDeps++
			case n > 1:
				c.doubleDeps++
			}
		}
	}
	if c.doubles+c.doubleDeps+c.missingDeps > 0 {
		c.t.Fatalf("%d double payments, %d double deposits, %d missing deposits", c.doubles, c.doubleDeps, c.missingDeps)
	}
}

// diagnose logs, once the run failed, what a person would look at first:
// the end of the server's log, payouts list, and each unfinished payout's
// transactions and jobs.
func (c *chaos) diagnose() {
	if !c.t.Failed() {
		return
	}
	var lines []string
	seen := map[string]bool{}
	for _, line := range strings.Split(c.cur.Stderr.String(), "\n") {
		// Warnings repeat at every sync: each once, with the last time.
		_, msg, _ := strings.Cut(line, `"level"`)
		if !seen[msg] {
			lines = append(lines, line)
		}
		seen[msg] = true
	}
	c.t.Logf("server log (each line once):\n%s", strings.Join(lines[max(0, len(lines)-60):], "\n"))
	for u, key := range c.keys {
		_, _, w := liveCall(c.t, "GET", c.url()+"/api/v1/wallets", key, nil)
		c.t.Logf("wallet %d: %v", u, w)
	}
	db := filepath.Join(c.dir, "payoutd.db")
	out, _, _ := runBinary(c.t, c.dir, "payouts", "list", "-db", db)
	c.t.Logf("payouts list:\n%s", out)
	st := c.read()
	for _, p := range c.payouts {
		if s, known := st.status[p.id]; known && s != "COMPLETED" && s != "FAILED" {
			out, _, _ := runBinary(c.t, c.dir, "payouts", "show", p.id, "-db", db)
			c.t.Logf("payouts show %s (memo %s, paid by %v):\n%s", p.id, p.memo, c.fake.PaidBy(p.memo), out)
		}
	}
}
