package store

import (
	"strings"
	"testing"
	"time"
)

func TestIDsIncreaseWithinAMillisecond(t *testing.T) {
	at := time.UnixMilli(1_800_000_000_000)
	prev := newIDAt("pay", at)
	for i := 0; i < 10000; i++ {
		id := newIDAt("pay", at)
		if id <= prev {
			t.Fatalf("id %s does not sort after %s", id, prev)
		}
		prev = id
	}
	if later := newIDAt("pay", at.Add(time.Millisecond)); later <= prev {
		t.Fatalf("a later millisecond sorts first: %s <= %s", later, prev)
	}
	if !strings.HasPrefix(prev, "pay_") || len(prev) != 30 {
		t.Fatalf("bad id shape %q", prev)
	}
}

func TestIDsNeverGoBackwards(t *testing.T) {
	a := newIDAt("evt", time.UnixMilli(1_900_000_000_000))
	b := newIDAt("evt", time.UnixMilli(1_899_999_999_000)) // the clock stepped back
	if b <= a {
		t.Fatalf("%s after a clock step back sorts before %s", b, a)
	}
}
