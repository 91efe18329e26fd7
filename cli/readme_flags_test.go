package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// serveHelpFlag is one flag as `payoutd serve -h` prints it.
type serveHelpFlag struct{ env, def string }

var (
	helpFlagLine = regexp.MustCompile(`^  -([a-z0-9-]+)`)
	helpEnv      = regexp.MustCompile(`env (PAYOUTD_[A-Z_]+)`)
	helpDefault  = regexp.MustCompile(`\(default ([^;)]*)[;)]`)
	readmeRow    = regexp.MustCompile("^\\| `(-[a-z0-9-]+)` \\| (`[A-Z_]+`)? ?\\| ([^|]*)\\|")
	readmeFlags  = regexp.MustCompile("`(-[a-z0-9*-]+)`")
)

// serveHelp parses the help text into flags, each with its env variable and
// default as the help states them.
func serveHelp(t *testing.T) map[string]serveHelpFlag {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"serve", "-h"}, func(string) string { return "" }, &out, &errOut)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("serve -h: %v", err)
	}
	flags := map[string]serveHelpFlag{}
	name := ""
	for _, line := range strings.Split(out.String()+errOut.String(), "\n") {
		if m := helpFlagLine.FindStringSubmatch(line); m != nil {
			name = m[1]
			flags[name] = serveHelpFlag{}
			continue
		}
		if name == "" || !strings.HasPrefix(line, "    \t") {
			continue
		}
		f := flags[name]
		if m := helpEnv.FindStringSubmatch(line); m != nil {
			f.env = m[1]
		}
		if m := helpDefault.FindStringSubmatch(line); m != nil {
			f.def = strings.Trim(m[1], `"`)
		}
		flags[name] = f
	}
	if len(flags) < 10 {
		t.Fatalf("parsed only %d flags from serve -h:\n%s", len(flags), out.String())
	}
	return flags
}

// sameDefault compares a README default with the help's, durations by value
// (the table writes 24h where the help prints 24h0m0s).
func sameDefault(readme, help string) bool {
	if readme == help {
		return true
	}
	a, errA := time.ParseDuration(readme)
	b, errB := time.ParseDuration(help)
	return errA == nil && errB == nil && a == b
}

// TestReadmeFlagTablesMatchServeHelp: every row of README.md's flag tables
// names the env variable and default `payoutd serve -h` prints (a default
// the README describes in words is one the help has no value for), and
// every serve flag is in a table, alone or under a `-prefix-*` row.
func TestReadmeFlagTablesMatchServeHelp(t *testing.T) {
	t.Parallel()
	help := serveHelp(t)
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	rows := 0
	for _, line := range strings.Split(string(readme), "\n") {
		if !strings.HasPrefix(line, "| `-") {
			continue
		}
		first := strings.SplitN(line[1:], "|", 2)[0]
		for _, m := range readmeFlags.FindAllStringSubmatch(first, -1) {
			for name := range help {
				if ok, _ := path.Match(m[1], "-"+name); ok {
					covered[name] = true
				}
			}
		}
		m := readmeRow.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		rows++
		name := strings.TrimPrefix(m[1], "-")
		h, ok := help[name]
		if !ok {
			t.Errorf("README lists %s, which serve -h does not have", m[1])
			continue
		}
		if env := strings.Trim(m[2], "`"); env != h.env {
			t.Errorf("README: %s env %q, serve -h says %q", m[1], env, h.env)
		}
		def := strings.TrimSpace(m[3])
		if strings.HasPrefix(def, "`") && strings.HasSuffix(def, "`") {
			if d := strings.Trim(def, "`"); !sameDefault(d, h.def) {
				t.Errorf("README: %s default %q, serve -h says %q", m[1], d, h.def)
			}
		} else if h.def != "" {
			t.Errorf("README: %s default %q, serve -h says %q", m[1], def, h.def)
		}
	}
	if rows < 10 {
		t.Fatalf("found only %d flag rows in README.md", rows)
	}
	for name := range help {
		if name != "h" && name != "help" && !covered[name] {
			t.Errorf("serve -%s is in no README.md flag table", name)
		}
	}
}

// TestEveryServeFlagHasEnv: a container is configured through its
// environment, so every serve flag reads a PAYOUTD_* variable and its help
// names it.
func TestEveryServeFlagHasEnv(t *testing.T) {
	t.Parallel()
	for name, f := range serveHelp(t) {
		if name != "h" && name != "help" && !strings.HasPrefix(f.env, "PAYOUTD_") {
			t.Errorf("serve -%s has no PAYOUTD_* variable", name)
		}
	}
}

// TestBadEnvValueRefused: a variable a flag reads with a value that flag
// would refuse stops serve before anything is created, naming the
// variable, instead of falling back to the default.
func TestBadEnvValueRefused(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ env, value, want string }{
		{"PAYOUTD_SHUTDOWN_GRACE", "30", "a duration such as 30s"},
		{"PAYOUTD_WORKERS", "many", "a whole number"},
		{"PAYOUTD_SANDBOX_PRIVATE_WEBHOOKS", "maybe", "true or false"},
		{"PAYOUTD_JOB_TIMEOUT", "20", "a duration"},
	} {
		t.Run(c.env, func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(binary, "serve", "-db", filepath.Join(dir, "payoutd.db"), "-addr", "127.0.0.1:0")
			cmd.Env = append(os.Environ(), c.env+"="+c.value)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("serve started with %s=%s", c.env, c.value)
			}
			if said := logText(t, string(out)); !strings.Contains(said, c.env+`="`+c.value+`"`) || !strings.Contains(said, c.want) {
				t.Errorf("the refusal should name %s and say what it takes: %s", c.env, out)
			}
			if names := dirFiles(t, dir); len(names) > 0 {
				t.Errorf("refused, yet created %v", names)
			}
		})
	}
}
