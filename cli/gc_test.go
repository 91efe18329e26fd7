package cli

import "testing"

// TestServerPacesGC: a server started without GOGC runs its collector at
// gcPercent, which an operator reads in go_gc_gogc_percent; one started
// with GOGC set keeps that value. Not parallel: it sets the environment
// the started processes inherit.
func TestServerPacesGC(t *testing.T) {
	for _, c := range []struct {
		gogc string
		want float64
	}{{"", gcPercent}, {"150", 150}} {
		t.Setenv("GOGC", c.gogc)
		p := start(t, t.TempDir(), "-metrics-addr", "127.0.0.1:0")
		if got := sample(scrape(t, metricsURL(t, p)), "go_gc_gogc_percent"); got != c.want {
			t.Errorf("GOGC=%q: go_gc_gogc_percent %v, want %v", c.gogc, got, c.want)
		}
	}
}
