package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/store/storetest"
)

// litestreamBinary is the real Litestream (PAYOUTD_TEST_LITESTREAM, or
// litestream on PATH). CI installs it and sets PAYOUTD_REQUIRE_LITESTREAM,
// so there the test cannot be skipped.
func litestreamBinary(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("PAYOUTD_TEST_LITESTREAM"); p != "" {
		return p
	}
	if p, err := exec.LookPath("litestream"); err == nil {
		return p
	}
	if os.Getenv("PAYOUTD_REQUIRE_LITESTREAM") != "" {
		t.Fatal("litestream is not installed (PAYOUTD_TEST_LITESTREAM or PATH)")
	}
	t.Skip("litestream is not installed; .ci/run installs it")
	return ""
}

// replicationBound is how far behind the replica may be at a crash with
// Litestream's default intervals (it looks at the WAL every second and
// ships what it found every second), with room for a loaded machine.
const replicationBound = 4 * time.Second

// acked is one payout the server acknowledged (201) and when.
type acked struct {
	id string
	at time.Time
}

// TestLitestreamRestoreAfterKill: payoutd under load with Litestream
// replicating its database to a replica directory, as litestream.yml
// configures it; both are killed with SIGKILL at once (the machine is
// gone); the database restored from the replica with Litestream's own
// restore passes check, serves, and holds every payout acknowledged more
// than replicationBound before the kill. The measured lag (the kill minus
// the acknowledgement of the oldest payout missing from the restore) is
// logged. Beside Litestream, payoutd's commands and a restarted server run
// as ever.
func TestLitestreamRestoreAfterKill(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts and kills processes under load")
	}
	bin := litestreamBinary(t)
	is := is.New(t)
	dir, replica, restoredDir := t.TempDir(), t.TempDir(), t.TempDir()
	db := filepath.Join(dir, "payoutd.db")
	cli(t, dir, "migrate")
	key := cli(t, dir, "keys", "create", "--email", "replica@example.com", "--name", "Replica Test", "--rate-exempt")
	p := start(t, dir)

	// The configuration compose.yaml runs, with this test's paths.
	var lsLog bytes.Buffer
	ls := exec.Command(bin, "replicate", "-config", "litestream.yml")
	ls.Env = append(os.Environ(), "PAYOUTD_DB="+db, "LITESTREAM_REPLICA_URL=file://"+replica)
	ls.Stdout, ls.Stderr = &lsLog, &lsLog
	is.NoErr(ls.Start())
	lsDone := make(chan struct{})
	go func() { ls.Wait(); close(lsDone) }()
	t.Cleanup(func() { ls.Process.Kill(); <-lsDone })
	wait.Until(t, 30*time.Second, "Litestream's first replica files", func() bool {
		n := 0
		filepath.WalkDir(replica, func(_ string, d os.DirEntry, _ error) error {
			if d != nil && !d.IsDir() {
				n++
			}
			return nil
		})
		return n > 0
	})

	// Beside Litestream, which uses the file by the same name, payoutd's
	// commands run and a server starts again.
	cli(t, dir, "check")
	p.stop(t)
	p = start(t, dir)

	var mu sync.Mutex
	var payouts []acked
	done := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				status, m := postQuiet(p.url+"/v1/payments", key, map[string]any{
					"amount": fmt.Sprintf("%d.%02d", 1+w, 1+i%90), "currency": "USD", "recipient": crashAddress})
				if status != 201 {
					return // the server is gone
				}
				mu.Lock()
				payouts = append(payouts, acked{m["id"].(string), time.Now()})
				mu.Unlock()
			}
		}()
	}
	wait.Until(t, 60*time.Second, "six seconds of load", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(payouts) > 0 && time.Since(payouts[0].at) > 6*time.Second
	})
	killed := time.Now()
	is.NoErr(p.cmd.Process.Signal(syscall.SIGKILL))
	is.NoErr(ls.Process.Signal(syscall.SIGKILL))
	close(done)
	wg.Wait()
	p.wait()
	<-lsDone

	restored := filepath.Join(restoredDir, "payoutd.db")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "restore", "-o", restored, "file://"+replica).CombinedOutput()
	if err != nil {
		t.Fatalf("litestream restore: %v\n%s\nreplicate's log:\n%s", err, out, lsLog.String())
	}
	copyFile(t, db+".masterkey", restored+".masterkey")

	mu.Lock()
	all := append([]acked(nil), payouts...)
	mu.Unlock()
	present := map[string]bool{}
	rows, err := storetest.Open(t, restored).Query("SELECT id FROM payments")
	is.NoErr(err)
	for rows.Next() {
		var id string
		is.NoErr(rows.Scan(&id))
		present[id] = true
	}
	is.NoErr(rows.Err())
	rows.Close()
	sort.Slice(all, func(i, j int) bool { return all[i].at.Before(all[j].at) })
	lag, missing := time.Duration(0), 0
	for _, a := range all {
		if present[a.id] {
			continue
		}
		if missing == 0 {
			lag = killed.Sub(a.at)
		}
		missing++
		if killed.Sub(a.at) > replicationBound {
			t.Errorf("payout %s, acknowledged %s before the kill, is not in the restored database", a.id, killed.Sub(a.at).Round(time.Millisecond))
		}
	}
	t.Logf("%d payouts acknowledged in %s of load; %d missing from the restore, all acknowledged within the last %s before the kill (replication lag)",
		len(all), killed.Sub(all[0].at).Round(time.Millisecond), missing, lag.Round(time.Millisecond))
	is.True(len(all) >= 20) // enough to lose some: the count depends on the machine

	// The restore is a sound payoutd database: check passes, and it serves.
	cli(t, restoredDir, "check", "-db", restored)
	again := startDB(t, restoredDir, restored)
	status, _ := get(t, again.url+"/api/v1/payments/payouts/"+all[0].id, key)
	is.Equal(status, 200)
}

// postQuiet posts body as JSON and reports the answer, never failing the
// test: the server may be killed under it (status 0).
func postQuiet(url, key string, body any) (int, map[string]any) {
	j, err := json.Marshal(body)
	if err != nil {
		return 0, nil
	}
	req, err := http.NewRequest("POST", url, bytes.NewReader(j))
	if err != nil {
		return 0, nil
	}
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil
	}
	defer res.Body.Close()
	var m map[string]any
	if json.NewDecoder(res.Body).Decode(&m) != nil {
		return 0, nil
	}
	return res.StatusCode, m
}
