package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/matryer/is"
)

// TestSIGTERMLetsDeliveriesFinish: SIGTERM arrives while a webhook is being
// delivered to a slow receiver. The delivery finishes and is recorded
// within the grace period, so after a restart no event reaches the
// receiver twice.
func TestSIGTERMLetsDeliveriesFinish(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and stops processes")
	}
	is := is.New(t)
	var mu sync.Mutex
	seen := map[string]int{}
	first := make(chan struct{})
	var once sync.Once
	rx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() { close(first) })
		time.Sleep(1500 * time.Millisecond) // a slow receiver, well inside the 10 s delivery timeout
		mu.Lock()
		seen[r.Header.Get("webhook-id")]++
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	defer rx.Close()

	dir := t.TempDir()
	cli(t, dir, "migrate")
	key := cli(t, dir, "keys", "create", "--email", "sigterm@example.com", "--name", "Sig Term")
	args := []string{"-webhook-retries", "1s,1s,1s"}
	p := start(t, dir, args...)
	status, m := post(t, p.url+"/api/v1/webhooks", key, map[string]any{"url": rx.URL + "/hook"})
	is.Equal(status, 201)
	_ = m
	status, m = post(t, p.url+"/v1/payments", key, map[string]any{"amount": "10.00", "currency": "USD", "recipient": crashAddress})
	is.Equal(status, 201)

	select {
	case <-first:
	case <-time.After(15 * time.Second):
		t.Fatal("no webhook delivery started")
	}
	is.NoErr(p.cmd.Process.Signal(syscall.SIGTERM))
	exited := make(chan error, 1)
	go func() { exited <- p.cmd.Wait() }()
	select {
	case err := <-exited:
		is.NoErr(err) // a clean exit after the deliveries in flight finished
	case <-time.After(30 * time.Second):
		t.Fatal("payoutd did not exit within the grace period")
	}

	// After a restart every event is delivered, each exactly once.
	p2 := start(t, dir, args...)
	deadline := time.Now().Add(30 * time.Second)
	var events []string
	for {
		_, body := get(t, p2.url+"/api/v1/events?limit=100", key)
		var list struct {
			Items []struct {
				ID string `json:"id"`
			} `json:"items"`
		}
		is.NoErr(json.Unmarshal(body, &list))
		events = events[:0]
		missing := 0
		mu.Lock()
		for _, e := range list.Items {
			events = append(events, e.ID)
			if seen[e.ID] == 0 {
				missing++
			}
		}
		mu.Unlock()
		if len(events) > 0 && missing == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d events never delivered", missing, len(events))
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(3 * time.Second) // longer than the retry schedule's first wait
	mu.Lock()
	defer mu.Unlock()
	for _, id := range events {
		if seen[id] != 1 {
			t.Errorf("event %s reached the receiver %d times", id, seen[id])
		}
	}
	t.Logf("%d events checked", len(events))
}
