package server

import (
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Per-minute limits.
const (
	limitInitiate = 10
	limitConfirm  = 5
	limitDefault  = 600
)

// rateLimiter counts requests per (subject, route) in fixed windows.
type rateLimiter struct {
	mu      sync.Mutex
	window  time.Duration
	buckets map[string]*bucket
	swept   time.Time
}

type bucket struct {
	start time.Time
	count int
}

func newRateLimiter(window time.Duration) *rateLimiter {
	return &rateLimiter{window: window, buckets: map[string]*bucket{}}
}

// allow counts one request and reports whether it is within limit, with the
// remaining allowance and when the window resets.
func (l *rateLimiter) allow(key string, limit int, now time.Time) (ok bool, remaining int, reset time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.swept) > l.window {
		// Drop finished windows so the map stays as small as the active set.
		for k, b := range l.buckets {
			if now.Sub(b.start) >= l.window {
				delete(l.buckets, k)
			}
		}
		l.swept = now
	}
	b := l.buckets[key]
	if b == nil || now.Sub(b.start) >= l.window {
		b = &bucket{start: now}
		l.buckets[key] = b
	}
	reset = b.start.Add(l.window).Sub(now)
	if b.count >= limit {
		return false, 0, reset
	}
	b.count++
	return true, limit - b.count, reset
}

// over reports, without counting, whether key has used up limit in its
// current window, and when the window resets.
func (l *rateLimiter) over(key string, limit int, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	count, reset := 0, l.window
	if b := l.buckets[key]; b != nil && now.Sub(b.start) < l.window {
		count, reset = b.count, b.start.Add(l.window).Sub(now)
	}
	return count >= limit, reset
}

// setRateHeaders writes the RateLimit-* headers (and Retry-After when refused).
func setRateHeaders(w http.ResponseWriter, limit, remaining int, reset time.Duration, refused bool) {
	secs := int((reset + time.Second - 1) / time.Second)
	h := w.Header()
	h.Set("RateLimit-Limit", strconv.Itoa(limit))
	h.Set("RateLimit-Remaining", strconv.Itoa(remaining))
	h.Set("RateLimit-Reset", strconv.Itoa(secs))
	if refused {
		h.Set("Retry-After", strconv.Itoa(secs))
	}
}
