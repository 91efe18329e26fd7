package resilience

import (
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/payoutd/payoutd/internal/wait"
)

// The chaos run's moves on processes and files: a server killed and
// started again, a backup restored, payoutd down while the RPC server
// forgets what it missed, a restart against a node behind, a twin.

// down confirms payouts, then SIGKILLs the server at the next send
// (before or after the network applies it), or at once when nothing is
// sent soon. No request of the test's is in flight when it dies.
func (c *chaos) down() {
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
}

// up starts the server again on the database in place, with extra flags.
func (c *chaos) up(extra ...string) {
	next := start(c.t, c.dir, append(append([]string(nil), c.args...), extra...)...)
	c.mu.Lock()
	c.cur = next
	c.mu.Unlock()
}

// restore kills the server, puts one of the last two backups in place of
// its database (as an operator restores the latest), and starts it again:
// the restored database may not know transactions the network applied
// since.
func (c *chaos) restore() {
	backup := c.backups[max(0, len(c.backups)-1-c.rng.IntN(2))]
	c.mu.Lock()
	syscall.Kill(c.cur.Cmd.Process.Pid, syscall.SIGKILL)
	c.mu.Unlock()
	c.cur.Wait()
	c.deposit(c.rng.IntN(2))
	restoreFile(c.t, backup, filepath.Join(c.dir, "payoutd.db"))
	c.sqlDB = nil // the old connection reads the file that was replaced
	c.restores++
	c.up()
}

// gap: payoutd dies at a send, clients deposit (and sometimes a vault is
// debited) while it is down, and the RPC server forgets every ledger it
// missed before it starts again: its movements have a gap until an
// operator resyncs it from an RPC server with the history.
func (c *chaos) gap() {
	c.down()
	c.deposit(1 + c.rng.IntN(3))
	if c.rng.IntN(3) == 0 {
		c.debit(1)
	}
	c.fake.Prune()
	c.gaps++
	c.up()
}

// behind: payoutd starts again against an RPC server 40 ledgers behind
// the network (a lagging node, or a load balancer's stale backend) while
// clients deposit. It books nothing from it (a phantom deposit would show
// in the checks) and /readyz says the RPC server is behind; the node then
// catches up.
func (c *chaos) behind() {
	c.down()
	node := c.fake.Node()
	node.Lag(40)
	c.deposit(1 + c.rng.IntN(2))
	c.up("-stellar-rpc", node.URL)
	wait.Until(c.t, 30*time.Second, "/readyz to say the RPC server is behind", func() bool {
		_, _, m := liveCall(c.t, "GET", c.url()+"/readyz", "", nil)
		rail, _ := m["rail"].(map[string]any)
		return rail["status"] == "behind"
	})
	node.Live()
	c.behinds++
}

// twin: a copy of the database (with its master key) is served beside the
// server against the same network, as a restored backup left running or
// a second machine would be: both sign from the same vaults. Payouts are
// confirmed through both; once the twin's are final or visibly waiting
// there, it is killed. What it paid the server does not know: it
// quarantines the vaults, and the operator resolves what the twin paid of
// the server's payouts.
func (c *chaos) twin() {
	c.pay()
	dir := c.t.TempDir()
	db := filepath.Join(dir, "payoutd.db")
	cli(c.t, c.dir, "backup", "--out", db)
	key, err := os.ReadFile(filepath.Join(c.dir, "payoutd.db.masterkey"))
	if err != nil {
		c.t.Fatal(err)
	}
	if err := os.WriteFile(db+".masterkey", key, 0o600); err != nil {
		c.t.Fatal(err)
	}
	twin := startDB(c.t, dir, db, c.args...)
	before := len(c.payouts)
	c.payVia(twin.URL)
	mine := c.payouts[before:]
	c.pay()
	wait.Until(c.t, 60*time.Second, "the twin's payouts to be final or waiting there", func() bool {
		if time.Since(c.advanced) > time.Second {
			c.fake.Advance(time.Minute)
			c.advanced = time.Now()
		}
		for _, p := range mine {
			key := c.keys[p.vault]
			_, _, m := liveCall(c.t, "GET", twin.URL+"/api/v1/payments/payouts/"+p.id, key, nil)
			w := wallet(c.t, twin.URL, key)
			if m["status"] != "COMPLETED" && m["status"] != "FAILED" && w["quarantine"] == nil && w["blocked"] == nil {
				return false
			}
		}
		return true
	})
	syscall.Kill(twin.Cmd.Process.Pid, syscall.SIGKILL)
	twin.Wait()
	c.twins++
}
