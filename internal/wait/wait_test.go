package wait

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestPollReturnsOnceTheConditionHolds(t *testing.T) {
	var n atomic.Int32
	go func() {
		for range 3 {
			n.Add(1)
		}
	}()
	For(t, 5*time.Second, func() error {
		if n.Load() < 3 {
			return errors.New("not yet")
		}
		return nil
	})
}

func TestPollGivesUpWithTheLastError(t *testing.T) {
	calls := 0
	err := poll(20*time.Millisecond, func() error { calls++; return errors.New("still 7") })
	if err == nil || err.Error() != "still 7" {
		t.Fatalf("poll returned %v", err)
	}
	if calls < 2 {
		t.Fatalf("checked %d times in 20ms", calls)
	}
}

// blockHere is a named frame for Parked to find.
func blockHere(mu *sync.Mutex, ch chan struct{}) {
	mu.Lock()
	mu.Unlock()
	<-ch
}

func TestParkedCountsGoroutinesBlockedAtAFrame(t *testing.T) {
	ch := make(chan struct{})
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() { defer wg.Done(); blockHere(&mu, ch) }()
	}
	Parked(t, 5*time.Second, 3, "chan receive", "wait.blockHere")
	if got := parked("chan receive", []string{"wait.blockHere"}); got != 3 {
		t.Fatalf("%d parked, want 3", got)
	}
	if got := parked("select", []string{"wait.blockHere"}); got != 0 {
		t.Fatalf("%d parked in select, want 0", got)
	}
	close(ch)
	wg.Wait()
	if got := parked("chan receive", []string{"wait.blockHere"}); got != 0 {
		t.Fatalf("%d still parked after release", got)
	}
}
