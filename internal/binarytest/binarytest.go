// Package binarytest is, for tests, the payoutd binary as a user runs it:
// built once per test process (Main), started as a server on a port the
// kernel picks (Start), run as an admin command (Run, Exec), and talked to
// over HTTP (Call). Every line the binary writes to stderr must be a JSON
// log record; LogText reads them back. Production code never imports it.
package binarytest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// path is the binary Main built.
var path string

// Main builds payoutd from the module's root into a temporary directory,
// sets *bin (if not nil) to its path for tests that run it their own way,
// runs the tests, removes it and exits: a test package's TestMain calls
// it. A build that fails ends the process.
func Main(m *testing.M, bin *string) {
	dir, err := os.MkdirTemp("", "payoutd-bin")
	if err != nil {
		panic(err)
	}
	path = filepath.Join(dir, "payoutd")
	build := exec.Command("go", "build", "-o", path, ".")
	build.Dir = root()
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build payoutd: %v\n%s", err, out)
		os.Exit(1)
	}
	if bin != nil {
		*bin = path
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// root is the module's root directory.
func root() string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(here), "..", "..")
}

// Run runs `payoutd ARGS -db DIR/payoutd.db` in dir, which must succeed,
// and answers its stdout, trimmed.
func Run(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(path, append(args, "-db", filepath.Join(dir, "payoutd.db"))...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("payoutd %v: %v\n%s", args, err, stderr.String())
	}
	return strings.TrimSpace(string(out))
}

// Exec runs payoutd with args in dir, without the database settings of the
// environment, and answers its stdout, the text of its stderr's log
// records (LogText) and its exit code.
func Exec(t testing.TB, dir string, args ...string) (string, string, int) {
	t.Helper()
	return ExecEnv(t, dir, nil, args...)
}

// ExecEnv is Exec with env (NAME=value) added to the process's environment.
func ExecEnv(t testing.TB, dir string, env []string, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "PAYOUTD_DB=", "PAYOUTD_MASTER_KEY=", "PAYOUTD_ADDR="), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), LogText(t, errb.String()), code
}

// LogText reads what payoutd wrote to stderr, where every line must be a
// JSON log record, and answers each record's message and error, a line
// each, for a test to look for what it says.
func LogText(t testing.TB, stderr string) string {
	t.Helper()
	var text []string
	for line := range strings.Lines(stderr) {
		var rec struct{ Msg, Error string }
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Errorf("stderr line is not a JSON log record (%v): %q", err, line)
			text = append(text, line)
			continue
		}
		if rec.Error != "" {
			rec.Msg += ": " + rec.Error
		}
		text = append(text, rec.Msg)
	}
	return strings.Join(text, "\n")
}
