package cli

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// TestServeLogsJSON: every line serve writes to stderr, at every level and
// through a start, requests and a shutdown, is a JSON record a log shipper
// can parse, the start among them with the address it listens on; the
// human start line goes to stdout.
func TestServeLogsJSON(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := start(t, t.TempDir(), "-log-level", "debug", "-metrics-addr", "127.0.0.1:0")
	addr := strings.TrimPrefix(p.URL, "http://")
	for _, path := range []string{"/readyz", "/api/v1/payments", "/nowhere"} {
		res, err := http.Get(p.URL + path)
		is.NoErr(err)
		res.Body.Close()
	}
	p.Stop(t)
	listening, records := false, 0
	for line := range strings.Lines(p.Stderr.String()) {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("stderr line is not JSON (%v): %q", err, line)
		}
		is.True(rec["time"] != nil && rec["level"] != nil && rec["msg"] != nil) // a log record
		records++
		if rec["msg"] == "listening" && rec["addr"] == addr {
			listening = true
		}
	}
	is.True(listening)    // the start record carries the address
	is.True(records >= 5) // start, metrics, three requests, shutdown
	is.True(strings.Contains(p.Stdout.String(), "payoutd listening on "+addr+" (sandbox mode)"))
	is.True(strings.Contains(p.Stdout.String(), "payoutd metrics on 127.0.0.1:"))
}

// TestCommandErrorsAreJSON: a command that fails, or is given a flag it
// does not know, says why in one JSON record on stderr and exits 1.
func TestCommandErrorsAreJSON(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"keys", "list", "--email", "a@example.com", "-db", "missing.db"}, "no payoutd database at missing.db"},
		{[]string{"serve", "-bogus"}, "flag provided but not defined: -bogus (payoutd serve -h lists its flags)"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"bench", "-samples", "0"}, "-samples: 0 is not a count of requests"},
	} {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			is := is.New(t)
			_, said, code := runBinary(t, dir, c.args...) // runBinary fails a line that is not JSON
			is.Equal(code, 1)
			is.True(strings.Contains(said, "command failed: "+c.want))
		})
	}
}
