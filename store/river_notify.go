package store

import (
	"context"
	"sync"

	"github.com/riverqueue/river/riverdriver"
)

// River wakes its fetchers, elector and job control with notifications.
// riversqlite carries them in a table every listener polls; payoutd's one
// server is the only process running jobs on its file, so its River
// notifications travel in memory instead: an insert wakes the fetcher at
// once, and nothing is written or polled for it. Jobs another process
// inserts (the CLI's) are found by River's fetch poll.
//
// A notification is delivered when River sends it, which for an insert
// is inside the inserting transaction, before its COMMIT. The fetch it
// wakes runs on the write connection, which the committer holds until that
// COMMIT, so the fetch sees the job; if the transaction rolls back, it
// finds nothing, as after any poll.

// notices fans River's notifications out to this process's listeners.
type notices struct {
	mu        sync.Mutex
	listeners map[*listener]struct{}
}

func (n *notices) send(topic string, payloads []string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	for l := range n.listeners {
		l.push(topic, payloads)
	}
}

func (n *notices) join(l *listener, on bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !on {
		delete(n.listeners, l)
		return
	}
	if n.listeners == nil {
		n.listeners = map[*listener]struct{}{}
	}
	n.listeners[l] = struct{}{}
}

// maxPending bounds what a listener keeps unread; River limits insert
// notifications per queue, so it is reached only by a listener nobody
// reads, whose oldest notifications are dropped.
const maxPending = 1024

// listener is River's listener on this process's notifications.
type listener struct {
	hub    *notices
	schema string
	wake   chan struct{}

	mu      sync.Mutex
	topics  map[string]bool
	pending []riverdriver.Notification
}

func newListener(hub *notices, schema string) *listener {
	return &listener{hub: hub, schema: schema, wake: make(chan struct{}, 1), topics: map[string]bool{}}
}

func (l *listener) push(topic string, payloads []string) {
	l.mu.Lock()
	if !l.topics[topic] {
		l.mu.Unlock()
		return
	}
	for _, p := range payloads {
		l.pending = append(l.pending, riverdriver.Notification{Topic: topic, Payload: p})
	}
	if over := len(l.pending) - maxPending; over > 0 {
		l.pending = l.pending[over:]
	}
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

func (l *listener) Connect(context.Context) error { l.hub.join(l, true); return nil }

func (l *listener) Close(context.Context) error {
	l.hub.join(l, false)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.pending, l.topics = nil, map[string]bool{}
	return nil
}

func (l *listener) Listen(_ context.Context, topic string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.topics[topic] = true
	return nil
}

func (l *listener) Unlisten(_ context.Context, topic string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.topics, topic)
	return nil
}

func (l *listener) Ping(context.Context) error { return nil }
func (l *listener) Schema() string             { return l.schema }
func (l *listener) SetAfterConnectExec(string) {}

func (l *listener) WaitForNotification(ctx context.Context) (*riverdriver.Notification, error) {
	for {
		l.mu.Lock()
		if len(l.pending) > 0 {
			n := l.pending[0]
			l.pending = l.pending[1:]
			l.mu.Unlock()
			return &n, nil
		}
		l.mu.Unlock()
		select {
		case <-l.wake:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// notifyingTx is River's executor on a store transaction, whose
// notifications go to this process's listeners.
type notifyingTx struct {
	riverdriver.ExecutorTx
	hub *notices
}

func (e *notifyingTx) NotifyMany(_ context.Context, p *riverdriver.NotifyManyParams) error {
	e.hub.send(p.Topic, p.Payload)
	return nil
}
