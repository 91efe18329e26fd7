package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/riverqueue/river/rivertype"

	"github.com/payoutd/payoutd/internal/wait"
	"github.com/payoutd/payoutd/jobs"
	"github.com/payoutd/payoutd/store/storetest"
)

// TestSIGTERMLetsDeliveriesFinish: SIGTERM arrives while a webhook is being
// delivered. The delivery finishes and is recorded within the grace
// period, so after a restart no event reaches the receiver twice.
func TestSIGTERMLetsDeliveriesFinish(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts and stops processes")
	}
	is := is.New(t)
	var mu sync.Mutex
	seen := map[string]int{}
	cut := 0 // deliveries the sender gave up on before the answer
	first, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	rx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		once.Do(func() { close(first) })
		// The first delivery is held until the server is shutting down.
		select {
		case <-release:
		case <-r.Context().Done():
			mu.Lock()
			cut++
			mu.Unlock()
			return
		}
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
	status, _ := post(t, p.URL+"/api/v1/webhooks", key, map[string]any{"url": rx.URL + "/hook"})
	is.Equal(status, 201)
	status, _ = post(t, p.URL+"/v1/payments", key, map[string]any{"amount": "10.00", "currency": "USD", "recipient": crashAddress})
	is.Equal(status, 201)

	select {
	case <-first:
	case <-time.After(15 * time.Second):
		t.Fatal("no webhook delivery started")
	}
	is.NoErr(p.Cmd.Process.Signal(syscall.SIGTERM))
	// Shutting down closes the listener first: once nothing answers, the
	// held delivery is still in flight inside a server that is stopping.
	wait.Until(t, 15*time.Second, "the server to stop listening", func() bool { _, err := p.Status("/readyz"); return err != nil })
	close(release)
	exited := make(chan error, 1)
	go func() { exited <- p.Wait() }()
	select {
	case err := <-exited:
		is.NoErr(err) // a clean exit after the deliveries in flight finished
	case <-time.After(30 * time.Second):
		t.Fatal("payoutd did not exit within the grace period")
	}

	// After a restart every event is delivered, each exactly once.
	p2 := start(t, dir, args...)
	var events []string
	wait.For(t, 30*time.Second, func() error {
		_, body := get(t, p2.URL+"/api/v1/events?limit=100", key)
		var list struct {
			Items []struct {
				ID string `json:"id"`
			} `json:"items"`
		}
		is.NoErr(json.Unmarshal(body, &list))
		events = events[:0]
		missing := 0
		mu.Lock()
		defer mu.Unlock()
		for _, e := range list.Items {
			events = append(events, e.ID)
			if seen[e.ID] == 0 {
				missing++
			}
		}
		if len(events) == 0 || missing > 0 {
			return fmt.Errorf("%d of %d events never delivered", missing, len(events))
		}
		return nil
	})
	// Once no delivery job is left to run or retry, no event can arrive
	// again.
	db := storetest.Open(t, filepath.Join(dir, "payoutd.db"))
	wait.For(t, 30*time.Second, func() error {
		deliveries, err := db.JobsOfKind(jobs.WebhookDeliverArgs{}.Kind())
		is.NoErr(err)
		open := 0
		for _, j := range deliveries {
			switch j.State {
			case rivertype.JobStateCompleted, rivertype.JobStateCancelled, rivertype.JobStateDiscarded:
			default:
				open++
			}
		}
		if open > 0 {
			return fmt.Errorf("%d webhook deliveries still to run", open)
		}
		return nil
	})
	mu.Lock()
	defer mu.Unlock()
	is.Equal(cut, 0) // no delivery was cut off by the shutdown
	for _, id := range events {
		if seen[id] != 1 {
			t.Errorf("event %s reached the receiver %d times", id, seen[id])
		}
	}
	t.Logf("%d events checked", len(events))
}
