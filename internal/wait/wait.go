// Package wait is how tests wait for something to happen: they poll the
// state that proves it (a committed row, a finished job, a request a fake
// received, a goroutine parked where it must be), never a fixed sleep,
// which on a slow machine passes without testing anything and on a fast
// one only wastes time.
package wait

import (
	"fmt"
	"testing"
	"time"
)

// firstPause and maxPause bound the backoff between polls: a condition
// that holds at once costs nothing, one that takes long is not polled in
// a tight loop.
const (
	firstPause = time.Millisecond
	maxPause   = 50 * time.Millisecond
)

// For polls check until it returns nil. Once within has passed it fails
// t with check's last error, which should say what was seen.
func For(t testing.TB, within time.Duration, check func() error) {
	t.Helper()
	if err := poll(within, check); err != nil {
		t.Fatalf("after %s: %v", within, err)
	}
}

// Until polls cond until it holds; what names it in the failure.
func Until(t testing.TB, within time.Duration, what string, cond func() bool) {
	t.Helper()
	For(t, within, func() error {
		if cond() {
			return nil
		}
		return fmt.Errorf("still waiting for %s", what)
	})
}

// poll is the one polling loop: check, then back off, until check passes
// or within has passed.
func poll(within time.Duration, check func() error) error {
	deadline := time.Now().Add(within)
	pause := firstPause
	for {
		err := check()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(pause)
		pause = min(2*pause, maxPause)
	}
}
