package binarytest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Proc is one started `payoutd serve`.
type Proc struct {
	URL    string
	Cmd    *exec.Cmd
	Stdout *Out
	Stderr *Log
	exited chan struct{} // closed once the process has exited
	err    error         // its exit status, set before exited is closed
}

// Start runs `payoutd serve` in dir on dir/payoutd.db and returns once it
// serves.
func Start(t testing.TB, dir string, args ...string) *Proc {
	t.Helper()
	return StartDB(t, dir, filepath.Join(dir, "payoutd.db"), args...)
}

// StartDB is Start on the database at db. The server listens on a port the
// kernel picks (-addr 127.0.0.1:0) and the test reads it from the line
// serve prints to stdout once it listens: no port is chosen before the
// server binds it, so no other process can take it in between. Every line
// it writes to stderr must be a JSON log record.
func StartDB(t testing.TB, dir, db string, args ...string) *Proc {
	t.Helper()
	cmd := exec.Command(path, append([]string{"serve", "-addr", "127.0.0.1:0", "-db", db, "-log-level", "warn"}, args...)...)
	cmd.Dir = dir
	// What serve prints before it listens (the demo key) comes before the
	// listening line on the same stream, so it is here once that line is.
	out := &Out{listening: make(chan string, 1)}
	log := &Log{}
	cmd.Stdout, cmd.Stderr = out, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &Proc{Cmd: cmd, Stdout: out, Stderr: log, exited: make(chan struct{})}
	go func() { p.err = cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() {
		p.kill()
		if bad := log.notJSON(); bad != "" {
			t.Errorf("payoutd wrote a stderr line that is not a JSON log record: %q", bad)
		}
	})
	// A start that fails kills the process before the test ends: the
	// test's own defers (a fake network's Close) run before its cleanups
	// and would wait for the connections of a server still running.
	select {
	case addr := <-out.listening:
		p.URL = "http://" + addr
	case <-p.exited:
		t.Fatalf("payoutd exited before listening (%v):\n%s", p.err, log)
	case <-time.After(30 * time.Second):
		p.kill()
		t.Fatalf("payoutd did not listen within 30s:\n%s", log)
	}
	// It accepts connections from the moment it listens; /readyz answers
	// once it serves.
	if status, err := p.Status("/readyz"); err != nil || status != http.StatusOK {
		p.kill()
		t.Fatalf("payoutd listens on %s but /readyz answers %d %v:\n%s", p.URL, status, err, log)
	}
	return p
}

// kill ends the process and waits until it has.
func (p *Proc) kill() {
	p.Cmd.Process.Kill()
	<-p.exited
}

// Wait waits for the process to exit and returns its exit status.
func (p *Proc) Wait() error {
	<-p.exited
	return p.err
}

// Status answers the status of an unauthenticated GET of path.
func (p *Proc) Status(path string) (int, error) {
	res, err := http.Get(p.URL + path)
	if err != nil {
		return 0, err
	}
	res.Body.Close()
	return res.StatusCode, nil
}

// Stop sends SIGTERM and waits for a clean exit.
func (p *Proc) Stop(t testing.TB) {
	t.Helper()
	if err := p.Cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := p.Wait(); err != nil {
		t.Fatalf("payoutd exit after SIGTERM: %v\n%s", err, p.Stderr)
	}
}

// Log is what a started payoutd writes to stderr: kept for failure
// messages (and copied to the test's stderr with PAYOUTD_TEST_LOG set).
type Log struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *Log) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(b)
	if os.Getenv("PAYOUTD_TEST_LOG") != "" {
		os.Stderr.Write(b)
	}
	return len(b), nil
}

func (l *Log) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// notJSON is the first whole line that is not a JSON object, or "".
func (l *Log) notJSON() string {
	lines := strings.Split(l.String(), "\n")
	for _, line := range lines[:len(lines)-1] { // the last is unfinished
		if !json.Valid([]byte(line)) || !strings.HasPrefix(line, "{") {
			return line
		}
	}
	return ""
}

// Out is what a started payoutd writes to stdout, with the address of its
// "payoutd listening on ADDR (… mode)" line handed to listening.
type Out struct {
	mu        sync.Mutex
	buf       bytes.Buffer
	listening chan string
	found     bool
}

func (o *Out) Write(b []byte) (int, error) {
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

func (o *Out) Bytes() []byte {
	o.mu.Lock()
	defer o.mu.Unlock()
	return bytes.Clone(o.buf.Bytes())
}

func (o *Out) String() string { return string(o.Bytes()) }
