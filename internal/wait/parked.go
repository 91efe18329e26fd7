package wait

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Parked waits until at least n goroutines of this process are blocked in
// state (as a goroutine dump names it: "select", "chan receive", …) with
// every one of funcs (e.g. "sqlitex.(*DB).WithTx") on their stacks. It is
// how a test knows that goroutines it started have reached a point where
// they wait for something the test holds (the single writer, a lock)
// before it lets go, instead of sleeping and hoping they have.
func Parked(t testing.TB, within time.Duration, n int, state string, funcs ...string) {
	t.Helper()
	For(t, within, func() error {
		if got := parked(state, funcs); got < n {
			return fmt.Errorf("%d of %d goroutines parked in %s at %s", got, n, state, strings.Join(funcs, " < "))
		}
		return nil
	})
}

// parked counts the goroutines blocked in state with all of funcs on
// their stacks.
func parked(state string, funcs []string) int {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	count := 0
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		header, stack, _ := bytes.Cut(g, []byte("\n"))
		// "goroutine 7 [select, 2 minutes]:"
		_, st, _ := bytes.Cut(header, []byte("["))
		st, _, _ = bytes.Cut(st, []byte("]"))
		st, _, _ = bytes.Cut(st, []byte(","))
		if string(st) != state {
			continue
		}
		// Only the goroutine's own frames, not the one that created it.
		stack, _, _ = bytes.Cut(stack, []byte("\ncreated by "))
		all := true
		for _, f := range funcs {
			if !bytes.Contains(stack, []byte(f+"(")) {
				all = false
				break
			}
		}
		if all {
			count++
		}
	}
	return count
}
