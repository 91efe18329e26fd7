package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/internal/wait"
)

// TestLiveRatesFileReread: a live server reads its -rates file again when
// the file changes, and at once on SIGHUP, so rates published by writing
// the file stay fresh without a restart.
func TestLiveRatesFileReread(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "rates.json")
	doc := func(asOf time.Time, rate string) []byte {
		return []byte(`{"asOf":"` + asOf.UTC().Format(time.RFC3339) + `","rates":{"USD":"` + rate + `"}}`)
	}
	is.NoErr(os.WriteFile(file, doc(time.Now().Add(-48*time.Hour), "83.25"), 0o600))
	p := start(t, dir, "-mode", "live", "-rates", file)
	ready := func() map[string]any {
		_, _, m := liveCall(t, "GET", p.URL+"/readyz", "", nil)
		return m
	}
	rates := func() map[string]any { r, _ := ready()["rates"].(map[string]any); return r }
	is.Equal(fmt.Sprint(rates()["stale"]), "[USD]") // a day old: live payouts wait for a fresh one

	fresh := time.Now().Add(-time.Minute).Truncate(time.Second)
	is.NoErr(os.WriteFile(file, doc(fresh, "83.30"), 0o600)) // the day's rate is published
	wait.Until(t, 20*time.Second, "the changed file to be read", func() bool { return ready()["degraded"] == nil })
	is.Equal(rates()["asOf"].(map[string]any)["USD"], fresh.UTC().Format(time.RFC3339))

	// A file replaced with its size and modification time unchanged looks
	// the same to the watcher: SIGHUP has it read now.
	st, err := os.Stat(file)
	is.NoErr(err)
	newer := fresh.Add(30 * time.Second)
	next := filepath.Join(dir, "rates.next")
	is.NoErr(os.WriteFile(next, doc(newer, "83.35"), 0o600))
	is.NoErr(os.Chtimes(next, st.ModTime(), st.ModTime()))
	is.NoErr(os.Rename(next, file))
	is.NoErr(p.Cmd.Process.Signal(syscall.SIGHUP))
	wait.Until(t, 10*time.Second, "SIGHUP to have the file read", func() bool {
		return rates()["asOf"].(map[string]any)["USD"] == newer.UTC().Format(time.RFC3339)
	})
	p.Stop(t) // SIGHUP did not stop it
}
