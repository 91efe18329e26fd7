package store

import (
	"context"
	"encoding/json"

	"github.com/payoutd/payoutd/apperr"
)

// EventWebhookDisabled tells a user an endpoint was turned off after its
// last delivery attempt failed.
const EventWebhookDisabled = "webhook.disabled"

// EventInvoiceRealisationDue tells a user rule 96A's watch flagged a LUT
// invoice not fully paid in foreign exchange (taxes.FlagRealisations).
const EventInvoiceRealisationDue = "invoice.realisation_due"

// EventTypes is every event type there is: what endpoints may subscribe
// to and GET /events may filter by. A new emit type must be added here.
var EventTypes = []string{
	"payout.processing", "payout.submitted", "payout.settled", "payout.completed",
	"payout.failed", "payout.pending", "payout.manual_review", "payout.unknown", EventPayoutNeedsAttention,
	"fira.generated", "reconciliation.pending", "reconciliation.resolved", "kyc.updated",
	EventWebhookDisabled,
	"tax.payment.recorded", "tax.payment.reversed", "lut.recorded", "lut.withdrawn",
	"invoice.issued", "invoice.credited", EventInvoiceRealisationDue,
	EventVaultQuarantined, EventVaultReleased,
	EventDepositReceived,
}

// KnownEventType reports whether typ is one of EventTypes.
func KnownEventType(typ string) bool {
	for _, t := range EventTypes {
		if t == typ {
			return true
		}
	}
	return false
}

const eventCols = "id, user_id, livemode, type, resource_id, data, created_at"

func scanEvent(row interface{ Scan(...any) error }) (Event, error) {
	var ev Event
	var data string
	var created int64
	err := row.Scan(&ev.ID, &ev.UserID, &ev.Livemode, &ev.Type, &ev.ResourceID, &data, &created)
	ev.Data, ev.CreatedAt = json.RawMessage(data), fromMS(created)
	return ev, err
}

// FindEvent loads one event by id, whoever owns it (delivery workers).
func (db *DB) FindEvent(ctx context.Context, id string) (Event, error) {
	ev, err := scanEvent(db.r.QueryRowContext(ctx, "SELECT "+eventCols+" FROM events WHERE id = ?", id))
	return ev, notFound(err, apperr.ErrNotFound, "event")
}

var eventOrder = keyset{from: "events", id: "id", keys: []string{"rowid"}, unique: true, asc: true}

// EventLog returns a page of a user's events (and the one after it, see
// pageArgs) in the order they were written (rowid), oldest first. Ids sort only to the millisecond, so ordering by id
// could let an "after" cursor skip an event written later in the same
// millisecond; rowid grows with every insert on the single writer. An After
// id that is not one of the user's events is a validation error.
func (db *DB) EventLog(ctx context.Context, f EventFilter) ([]Event, int, error) {
	where, args := "user_id = ?", []any{f.UserID}
	if f.Type != "" {
		where += " AND type = ?"
		args = append(args, f.Type)
	}
	if f.After != "" {
		cond, cargs, err := db.afterCursor(ctx, eventOrder, f.After, "user_id = ?", []any{f.UserID})
		if err != nil {
			return nil, 0, err
		}
		where += " AND " + cond
		args = append(args, cargs...)
	}
	total, err := db.listTotal(ctx, f.After == "", f.UserID, kindEvents, f.Type, "SELECT count(*) FROM events WHERE "+where, args)
	if err != nil {
		return nil, 0, err
	}
	rows, err := db.query(ctx, "SELECT "+eventCols+" FROM events WHERE "+where+eventOrder.orderBy()+" LIMIT ? OFFSET ?",
		append(args, pageArgs(f.Page, f.Limit)...)...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	out := []Event{}
	for rows.Next() {
		ev, err := scanEvent(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, ev)
	}
	return out, total, rows.Err()
}

// EventFilter selects a page of a user's events, oldest first after After.
type EventFilter struct {
	UserID string
	Type   string
	After  string // an event id; only later events are listed
	Page   int
	Limit  int
}
