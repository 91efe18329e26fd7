package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/internal/wait"
)

// binary is payoutd built once for the tests that run it as a process.
var binary string

func TestMain(m *testing.M) {
	// The tests read the repository's files (README.md, Dockerfile,
	// schema.sql, examples/) and build the binary from its root.
	if err := os.Chdir(".."); err != nil {
		panic(err)
	}
	schema, err := os.ReadFile("schema.sql")
	if err != nil {
		panic(err)
	}
	schemaSQL = string(schema)
	dir, err := os.MkdirTemp("", "payoutd-bin")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "payoutd")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build payoutd: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// proc is one started payoutd process.
type proc struct {
	cmd    *exec.Cmd
	url    string
	stdout *procOut
	stderr *procLog
	exited chan struct{} // closed once the process has exited
	err    error         // its exit status, set before exited is closed
}

// start runs `payoutd serve` in dir and returns once it serves.
func start(t *testing.T, dir string, args ...string) *proc {
	t.Helper()
	return startDB(t, dir, filepath.Join(dir, "payoutd.db"), args...)
}

// startDB is start on the database at db. The server listens on a port the
// kernel picks (-addr 127.0.0.1:0) and the test reads it from the line
// serve prints to stdout once it listens: no port is chosen before the
// server binds it, so no other process can take it in between. Every line
// it writes to stderr must be a JSON log record.
func startDB(t *testing.T, dir, db string, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"serve", "-addr", "127.0.0.1:0", "-db", db, "-log-level", "warn"}, args...)...)
	cmd.Dir = dir
	// What serve prints before it listens (the demo key) comes before the
	// listening line on the same stream, so it is here once that line is.
	out := &procOut{listening: make(chan string, 1)}
	log := &procLog{}
	cmd.Stdout, cmd.Stderr = out, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{cmd: cmd, stdout: out, stderr: log, exited: make(chan struct{})}
	go func() { p.err = cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		<-p.exited
		if bad := log.notJSON(); bad != "" {
			t.Errorf("payoutd wrote a stderr line that is not a JSON log record: %q", bad)
		}
	})
	select {
	case addr := <-out.listening:
		p.url = "http://" + addr
	case <-p.exited:
		t.Fatalf("payoutd exited before listening (%v):\n%s", p.err, log)
	case <-time.After(30 * time.Second):
		t.Fatalf("payoutd did not listen within 30s:\n%s", log)
	}
	// It accepts connections from the moment it listens; /readyz answers
	// once it serves.
	if status, err := p.get("/readyz"); err != nil || status != http.StatusOK {
		t.Fatalf("payoutd listens on %s but /readyz answers %d %v:\n%s", p.url, status, err, log)
	}
	return p
}

// wait waits for the process to exit and returns its exit status.
func (p *proc) wait() error {
	<-p.exited
	return p.err
}

// procLog is what a started payoutd writes to stderr: kept for failure
// messages (and copied to the test's stderr with PAYOUTD_TEST_LOG set).
type procLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *procLog) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(b)
	if os.Getenv("PAYOUTD_TEST_LOG") != "" {
		os.Stderr.Write(b)
	}
	return len(b), nil
}

func (l *procLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// notJSON is the first whole line that is not a JSON object, or "".
func (l *procLog) notJSON() string {
	lines := strings.Split(l.String(), "\n")
	for _, line := range lines[:len(lines)-1] { // the last is unfinished
		if !json.Valid([]byte(line)) || !strings.HasPrefix(line, "{") {
			return line
		}
	}
	return ""
}

// procOut is what a started payoutd writes to stdout, with the address of
// its "payoutd listening on ADDR (… mode)" line handed to listening.
type procOut struct {
	mu        sync.Mutex
	buf       bytes.Buffer
	listening chan string
	found     bool
}

func (o *procOut) Write(b []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.buf.Write(b)
	if !o.found {
		for _, line := range strings.Split(o.buf.String(), "\n") {
			if rest, ok := strings.CutPrefix(line, "payoutd listening on "); ok {
				if addr, _, ok := strings.Cut(rest, " ("); ok {
					o.listening <- addr
					o.found = true
					break
				}
			}
		}
	}
	return len(b), nil
}

func (o *procOut) Bytes() []byte {
	o.mu.Lock()
	defer o.mu.Unlock()
	return bytes.Clone(o.buf.Bytes())
}

func (o *procOut) String() string { return string(o.Bytes()) }

// get answers the status of an unauthenticated GET.
func (p *proc) get(path string) (int, error) {
	res, err := http.Get(p.url + path)
	if err != nil {
		return 0, err
	}
	res.Body.Close()
	return res.StatusCode, nil
}

// stop sends SIGTERM and waits for a clean exit.
func (p *proc) stop(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := p.wait(); err != nil {
		t.Fatalf("payoutd exit after SIGTERM: %v\n%s", err, p.stderr)
	}
}

func cli(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary, append(args, "-db", filepath.Join(dir, "payoutd.db"))...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("payoutd %v: %v\n%s", args, err, stderr.String())
	}
	return strings.TrimSpace(string(out))
}

func get(t *testing.T, url, key string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

func post(t *testing.T, url, key string, body any) (int, map[string]any) {
	t.Helper()
	status, _, m := liveCall(t, "POST", url, key, body)
	return status, m
}

func TestFirstStartPrintsWorkingKey(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dir := t.TempDir()
	p := start(t, dir)
	var key string
	sc := bufio.NewScanner(bytes.NewReader(p.stdout.Bytes()))
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "sk_sandbox_") {
			key = sc.Text()
		}
	}
	is.True(key != "")
	status, _ := get(t, p.url+"/api/v1/payments", key)
	is.Equal(status, 200)
	// A second start prints no new key.
	p.cmd.Process.Signal(syscall.SIGTERM)
	is.NoErr(p.wait()) // graceful shutdown exits 0
	p2 := start(t, dir)
	is.True(!strings.Contains(p2.stdout.String(), "sk_sandbox_"))
}

func TestKeysCLI(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dir := t.TempDir()
	cli(t, dir, "migrate") // keys never creates a database
	key := cli(t, dir, "keys", "create", "--email", "cli@example.com", "--name", "Asha Rao")
	is.True(strings.HasPrefix(key, "sk_sandbox_"))
	p := start(t, dir, "-mode", "live") // live mode: no demo user
	status, _ := get(t, p.url+"/api/v1/payments", key)
	is.Equal(status, 200)
	list := cli(t, dir, "keys", "list", "--email", "cli@example.com")
	fields := strings.Fields(strings.Split(list, "\n")[1])
	keyID := fields[0]
	is.True(strings.HasPrefix(keyID, "key_"))
	rotated := cli(t, dir, "keys", "rotate", keyID)
	is.True(strings.HasPrefix(rotated, "sk_sandbox_"))
	status, _ = get(t, p.url+"/api/v1/payments", key)
	is.Equal(status, 200) // grace period
	cli(t, dir, "keys", "revoke", keyID)
	// Another process revoked it: the server refuses it within a second.
	var body []byte
	wait.Until(t, 2*time.Second, "the revoked key to be refused", func() bool {
		status, body = get(t, p.url+"/api/v1/payments", key)
		return status == 401
	})
	is.True(strings.Contains(string(body), "ERR_UNAUTHORIZED"))
	status, _ = get(t, p.url+"/api/v1/payments", rotated)
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
			_, body := get(t, p.url+"/api/v1/payments/payouts/"+id, key)
			var m map[string]any
			json.Unmarshal(body, &m)
			if m["status"] != want {
				return fmt.Errorf("payment %s is %v, want %s", id, m["status"], want)
			}
			return nil
		})
	}
	pay := func() string {
		status, m := post(t, p.url+"/v1/payments", key, map[string]any{"amount": "10.66", "currency": "USD", "recipient": crashAddress})
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
	_, body := get(t, p.url+"/api/v1/payments/payouts/"+rejected, key)
	is.True(strings.Contains(string(body), "COMPLIANCE_REJECTED: unclear purpose"))
	// Reviewing a payout that is not waiting for review fails.
	cmd := exec.Command(binary, "review", "approve", approved, "-db", filepath.Join(dir, "payoutd.db"))
	is.True(cmd.Run() != nil)
}
