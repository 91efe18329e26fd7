package cli

import "runtime/debug"

// gcPercent paces Go's garbage collector unless GOGC says otherwise.
//
// payoutd's live Go heap is small (a few MB: SQLite's page caches live
// outside it), so at Go's default of 100 the collector starts a cycle for
// every few MB allocated, many times a second under load, and on a small
// machine each cycle's marking competes for a core with the one goroutine
// that writes every transaction. At 400 the heap may grow to five times
// the live data between cycles, trading a little memory for throughput
// (docs/performance.md). GOGC and GOMEMLIMIT set in the environment are
// obeyed as Go documents them.
const gcPercent = 400

// paceGC applies gcPercent when the environment has not set GOGC.
func paceGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercent)
	}
}
