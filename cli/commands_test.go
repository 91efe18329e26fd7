package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/internal/wait"
)

func TestFirstStartPrintsWorkingKey(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dir := t.TempDir()
	p := start(t, dir)
	var key string
	sc := bufio.NewScanner(bytes.NewReader(p.Stdout.Bytes()))
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "sk_sandbox_") {
			key = sc.Text()
		}
	}
	is.True(key != "")
	status, _ := get(t, p.URL+"/api/v1/payments", key)
	is.Equal(status, 200)
	// A second start prints no new key.
	p.Cmd.Process.Signal(syscall.SIGTERM)
	is.NoErr(p.Wait()) // graceful shutdown exits 0
	p2 := start(t, dir)
	is.True(!strings.Contains(p2.Stdout.String(), "sk_sandbox_"))
}

func TestKeysCLI(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dir := t.TempDir()
	cli(t, dir, "migrate") // keys never creates a database
	key := cli(t, dir, "keys", "create", "--email", "cli@example.com", "--name", "Asha Rao")
	is.True(strings.HasPrefix(key, "sk_sandbox_"))
	p := start(t, dir, "-mode", "live") // live mode: no demo user
	status, _ := get(t, p.URL+"/api/v1/payments", key)
	is.Equal(status, 200)
	list := cli(t, dir, "keys", "list", "--email", "cli@example.com")
	fields := strings.Fields(strings.Split(list, "\n")[1])
	keyID := fields[0]
	is.True(strings.HasPrefix(keyID, "key_"))
	rotated := cli(t, dir, "keys", "rotate", keyID)
	is.True(strings.HasPrefix(rotated, "sk_sandbox_"))
	status, _ = get(t, p.URL+"/api/v1/payments", key)
	is.Equal(status, 200) // grace period
	cli(t, dir, "keys", "revoke", keyID)
	// Another process revoked it: the server refuses it within a second.
	var body []byte
	wait.Until(t, 2*time.Second, "the revoked key to be refused", func() bool {
		status, body = get(t, p.URL+"/api/v1/payments", key)
		return status == 401
	})
	is.True(strings.Contains(string(body), "ERR_UNAUTHORIZED"))
	status, _ = get(t, p.URL+"/api/v1/payments", rotated)
	is.Equal(status, 200)
	live := cli(t, dir, "keys", "create", "--email", "cli@example.com", "--env", "production", "--scopes", "payments:read")
	is.True(strings.HasPrefix(live, "sk_live_"))
	is.True(strings.HasPrefix(cli(t, dir, "check"), "ok: audit chain intact, books balanced;"))
	_ = context.Background()
}

func TestReviewCLI(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dir := t.TempDir()
	cli(t, dir, "migrate") // keys never creates a database
	key := cli(t, dir, "keys", "create", "--email", "review@example.com", "--name", "Review Test")
	p := start(t, dir, "-mode", "live")
	waitStatus := func(id, want string) {
		t.Helper()
		wait.For(t, 10*time.Second, func() error {
			_, body := get(t, p.URL+"/api/v1/payments/payouts/"+id, key)
			var m map[string]any
			json.Unmarshal(body, &m)
			if m["status"] != want {
				return fmt.Errorf("payment %s is %v, want %s", id, m["status"], want)
			}
			return nil
		})
	}
	pay := func() string {
		status, m := post(t, p.URL+"/v1/payments", key, map[string]any{"amount": "10.66", "currency": "USD", "recipient": crashAddress})
		is.Equal(status, 201)
		id := m["id"].(string)
		waitStatus(id, "MANUAL_REVIEW")
		return id
	}
	approved := pay()
	is.Equal(cli(t, dir, "review", "approve", approved), approved+" PROCESSING")
	waitStatus(approved, "COMPLETED")
	rejected := pay()
	is.Equal(cli(t, dir, "review", "reject", rejected, "--reason", "unclear purpose"), rejected+" FAILED")
	_, body := get(t, p.URL+"/api/v1/payments/payouts/"+rejected, key)
	is.True(strings.Contains(string(body), "COMPLIANCE_REJECTED: unclear purpose"))
	// Reviewing a payout that is not waiting for review fails.
	cmd := exec.Command(binary, "review", "approve", approved, "-db", filepath.Join(dir, "payoutd.db"))
	is.True(cmd.Run() != nil)
}
