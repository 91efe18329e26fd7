package resilience

import (
	"fmt"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/store/storetest"
)

// TestCrashLosesNothing kills the server with SIGKILL while 200 payouts are
// in the pipeline, restarts it, and checks every payout reaches one final
// state exactly once with the vault balance exact.
func TestCrashLosesNothing(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts and kills processes")
	}
	is := is.New(t)
	dir := t.TempDir()
	cli(t, dir, "migrate") // keys never creates a database
	key := cli(t, dir, "keys", "create", "--email", "crash@example.com", "--name", "Crash Test", "--rate-exempt")
	// A job cut off by the kill runs again once it has been stuck for the
	// job timeout and 5 s more: a short timeout lets the restarted server
	// rescue it as soon as it leads (River's leader lease, up to 15 s),
	// rather than at the rescuer's next run after the default 25 s.
	args := []string{"-mode", "live", "-job-timeout", "2s"}
	p := start(t, dir, args...)
	const n = 200
	amounts := make([]int64, n) // cents
	var wg sync.WaitGroup
	ids := make([]string, n)
	sem := make(chan struct{}, 8)
	for i := 0; i < n; i++ {
		cents := int64(1000 + i*100) // .00: settles
		if i%10 == 3 {
			cents += 13 // .13: fails at settlement
		}
		amounts[i] = cents
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			status, m := post(t, p.URL+"/v1/payments", key, map[string]any{
				"amount": fmt.Sprintf("%d.%02d", amounts[i]/100, amounts[i]%100), "currency": "USD", "recipient": crashAddress,
			})
			if status != 201 {
				t.Errorf("payout %d: %d %v", i, status, m)
				return
			}
			ids[i] = m["id"].(string)
		}(i)
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	is.NoErr(p.Cmd.Process.Signal(syscall.SIGKILL))
	p.Wait()

	db := storetest.Open(t, dir+"/payoutd.db")
	var midway int
	is.NoErr(db.QueryRow("SELECT count(*) FROM payments WHERE status NOT IN ('COMPLETED','FAILED')").Scan(&midway))
	t.Logf("%d of %d payouts were mid-pipeline at SIGKILL", midway, n)

	start(t, dir, args...)
	wait.For(t, 60*time.Second, func() error {
		var open int
		is.NoErr(db.QueryRow("SELECT count(*) FROM payments WHERE status NOT IN ('COMPLETED','FAILED')").Scan(&open))
		if open > 0 {
			return fmt.Errorf("%d payouts still not final after restart", open)
		}
		return nil
	})
	var want int64 = 100_000_00
	for i, id := range ids {
		var status string
		is.NoErr(db.QueryRow("SELECT status FROM payments WHERE id = ?", id).Scan(&status))
		wantStatus := "COMPLETED"
		if i%10 == 3 {
			wantStatus = "FAILED"
		} else {
			want -= amounts[i]
		}
		is.Equal(status, wantStatus)
		var finals int
		is.NoErr(db.QueryRow(`SELECT count(*) FROM audit_log WHERE resource_id = ? AND action IN ('payment.completed','payment.failed','payment.confirmed')`, id).Scan(&finals))
		if wantStatus == "COMPLETED" {
			is.Equal(finals, 2) // confirmed once, completed once
		} else {
			is.Equal(finals, 1)
		}
	}
	var balance, reserved int64
	is.NoErr(db.QueryRow("SELECT balance, reserved FROM vaults v JOIN users u ON u.id = v.user_id WHERE u.email = 'crash@example.com'").Scan(&balance, &reserved))
	is.Equal(balance, want)
	is.Equal(reserved, int64(0))
	is.True(strings.HasPrefix(cli(t, dir, "check"), "ok: audit chain intact, books balanced;"))
}
