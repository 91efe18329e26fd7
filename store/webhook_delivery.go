package store

import (
	"context"
	"database/sql"
	"time"
)

// Delivery attempt outcomes.
const (
	DeliverySucceeded = "succeeded"
	DeliveryFailed    = "failed"
)

// WebhookAttempt is one HTTP request of one event to one endpoint.
type WebhookAttempt struct {
	ID           string
	EndpointID   string
	EventID      string
	EventType    string
	Attempt      int // 1 for the first request of this event to this endpoint
	Status       string
	ResponseCode int // 0 when no response arrived
	Duration     time.Duration
	Error        string
	NextRetryAt  *time.Time // set when another attempt is scheduled
	CreatedAt    time.Time
}

// WebhookDelivered reports whether an endpoint already accepted an event, so
// a rerun job does not send again what was accepted.
func (g Webhooks) WebhookDelivered(ctx context.Context, endpointID, eventID string) (bool, error) {
	db := g.db
	var delivered bool
	err := db.r.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM webhook_deliveries
		WHERE endpoint_id = ? AND event_id = ? AND status = ?)`, endpointID, eventID, DeliverySucceeded).Scan(&delivered)
	return delivered, err
}

// WebhookAttempts counts the attempts recorded so far, inside the
// transaction that records the next one, so attempt numbers never repeat.
func (g WebhooksTx) WebhookAttempts(endpointID, eventID string) (int, error) {
	tx := g.tx
	var n int
	err := tx.queryRow("SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = ? AND event_id = ?",
		endpointID, eventID).Scan(&n)
	return n, err
}

// RecordWebhookAttempt appends an attempt to the endpoint's delivery log.
func (g WebhooksTx) RecordWebhookAttempt(a *WebhookAttempt) error {
	tx := g.tx
	a.ID, a.CreatedAt = NewID("whd"), tx.now
	var code, next any
	if a.ResponseCode != 0 {
		code = a.ResponseCode
	}
	if a.NextRetryAt != nil {
		next = ms(*a.NextRetryAt)
	}
	_, err := tx.exec(`INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, attempt, status,
		response_code, duration_ms, error, next_retry_at, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?)`,
		a.ID, a.EndpointID, a.EventID, a.EventType, a.Attempt, a.Status, code, a.Duration.Milliseconds(), a.Error, next, ms(tx.now))
	return err
}

// DeliveryFilter selects a page of one endpoint's attempts, newest first.
type DeliveryFilter struct {
	UserID     string
	EndpointID string
	EventID    string // optional
	After      string // a delivery id: only the attempts after it are listed
	Page       int
	Limit      int
}

var deliveryOrder = keyset{from: "webhook_deliveries", id: "id", keys: []string{"created_at"}}

// ListWebhookDeliveries returns a page of attempts (and the one after it,
// see pageArgs) and the total matching.
// Another user's endpoint is not found.
func (g Webhooks) ListWebhookDeliveries(ctx context.Context, f DeliveryFilter) ([]WebhookAttempt, int, error) {
	db := g.db
	if _, err := db.Webhooks().FindWebhookEndpoint(ctx, f.UserID, f.EndpointID); err != nil {
		return nil, 0, err
	}
	where, args := "endpoint_id = ?", []any{f.EndpointID}
	if f.EventID != "" {
		where += " AND event_id = ?"
		args = append(args, f.EventID)
	}
	var total int
	if err := db.r.QueryRowContext(ctx, "SELECT count(*) FROM webhook_deliveries WHERE "+where, args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	if f.After != "" {
		cond, cargs, err := db.afterCursor(ctx, deliveryOrder, f.After, "endpoint_id = ?", []any{f.EndpointID})
		if err != nil {
			return nil, 0, err
		}
		where += " AND " + cond
		args = append(args, cargs...)
	}
	rows, err := db.query(ctx, `SELECT id, endpoint_id, event_id, event_type, attempt, status, response_code,
		duration_ms, error, next_retry_at, created_at FROM webhook_deliveries WHERE `+where+deliveryOrder.orderBy()+" LIMIT ? OFFSET ?", append(args, pageArgs(f.Page, f.Limit)...)...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	out := []WebhookAttempt{}
	for rows.Next() {
		var a WebhookAttempt
		var code, next sql.NullInt64
		var durMS, created int64
		if err := rows.Scan(&a.ID, &a.EndpointID, &a.EventID, &a.EventType, &a.Attempt, &a.Status, &code, &durMS,
			&a.Error, &next, &created); err != nil {
			return nil, 0, err
		}
		a.ResponseCode, a.Duration = int(code.Int64), time.Duration(durMS)*time.Millisecond
		a.NextRetryAt, a.CreatedAt = nullMS(next), fromMS(created)
		out = append(out, a)
	}
	return out, total, rows.Err()
}
