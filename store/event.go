package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Event is something a client may want to hear about.
type Event struct {
	ID         string          `json:"id"`
	UserID     string          `json:"-"`
	Livemode   bool            `json:"livemode"`
	Type       string          `json:"type"`
	ResourceID string          `json:"-"`
	Data       json.RawMessage `json:"data"`
	CreatedAt  time.Time       `json:"-"`
}

// EventHook runs in the transaction that wrote an event; the webhook jobs
// use it to enqueue deliveries so they commit with the event.
type EventHook func(tx *Tx, ev Event) error

// SetEventHook installs the hook (app.Open does). Until then a transaction
// that writes an event fails: an event no webhook would ever hear of is
// refused, not written.
func (db *DB) SetEventHook(h EventHook) { db.eventHook = h }

// errNoEventHook is an event written on a database nobody wired.
var errNoEventHook = errors.New("store: no event hook installed (open the database with app.Open): the event would reach no webhook")

// paymentEvents maps a payment status to the event its arrival emits.
// MANUAL_REVIEW has its own event and never settled/failed.
var paymentEvents = map[string]string{
	StatusProcessing:   "payout.processing",
	StatusSubmitted:    "payout.submitted",
	StatusConfirmed:    "payout.settled",
	StatusCompleted:    "payout.completed",
	StatusFailed:       "payout.failed",
	StatusPending:      "payout.pending",
	StatusManualReview: "payout.manual_review",
	StatusUnknown:      "payout.unknown",
}

// emit writes an event in this transaction and hands it to the hook.
func (tx *Tx) emit(userID string, livemode bool, typ, resourceID string, data any) error {
	if tx.eventHook == nil {
		return errNoEventHook
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("event data: %w", err)
	}
	ev := Event{ID: NewID("evt"), UserID: userID, Livemode: livemode, Type: typ, ResourceID: resourceID, Data: raw, CreatedAt: tx.now}
	// Inserted when the transaction ends, see log_rows.go.
	tx.eventRows = append(tx.eventRows, ev.ID, userID, livemode, typ, resourceID, string(raw), ms(tx.now))
	tx.countRow(userID, kindEvents, typ)
	return tx.eventHook(tx, ev)
}
