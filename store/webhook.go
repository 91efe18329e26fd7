package store

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/wire"
)

// Webhook endpoint states.
const (
	WebhookEnabled  = "enabled"
	WebhookDisabled = "disabled"
)

// MaxWebhookEndpoints bounds the fan-out of one event: every endpoint costs a
// job per event inside the transaction that emits it.
const MaxWebhookEndpoints = 16

// WebhookEndpoint is a URL that receives a user's events.
type WebhookEndpoint struct {
	ID          string
	UserID      string
	Livemode    bool
	URL         string
	Description string
	// EventTypes is the subscription; empty means every type.
	EventTypes     []string
	Status         string
	DisabledReason string
	DisabledAt     *time.Time
	CreatedAt      time.Time
	UpdatedAt      time.Time
	// GraceUntil is when the last rotated secret stops signing; nil when only
	// the current secret signs.
	GraceUntil *time.Time
}

// Wants reports whether the endpoint subscribes to an event type.
func (ep WebhookEndpoint) Wants(typ string) bool {
	if len(ep.EventTypes) == 0 {
		return true
	}
	for _, t := range ep.EventTypes {
		if t == typ {
			return true
		}
	}
	return false
}

// The grace column is the latest expiry of a rotated secret still signing,
// worked out at read time so the endpoint row never needs updating when a
// grace period ends.
const webhookCols = `id, user_id, livemode, url, description, event_types, status, disabled_reason, disabled_at,
	created_at, updated_at,
	(SELECT max(expires_at) FROM webhook_secrets s WHERE s.endpoint_id = webhook_endpoints.id AND s.expires_at > ?)`

func scanWebhook(row interface{ Scan(...any) error }) (WebhookEndpoint, error) {
	var ep WebhookEndpoint
	var types string
	var disabled, grace sql.NullInt64
	var created, updated int64
	err := row.Scan(&ep.ID, &ep.UserID, &ep.Livemode, &ep.URL, &ep.Description, &types, &ep.Status,
		&ep.DisabledReason, &disabled, &created, &updated, &grace)
	ep.EventTypes = strings.Fields(types)
	ep.DisabledAt, ep.CreatedAt, ep.UpdatedAt, ep.GraceUntil = nullMS(disabled), fromMS(created), fromMS(updated), nullMS(grace)
	return ep, err
}

func webhookNotFound(err error) error { return notFound(err, apperr.ErrNotFound, "webhook endpoint") }

// CreateWebhookEndpoint stores a new enabled endpoint with a fresh signing
// secret, returned in its whsec_ form: shown once, stored only sealed.
func (g WebhooksTx) CreateWebhookEndpoint(ep WebhookEndpoint, sealer *Sealer) (WebhookEndpoint, string, error) {
	tx := g.tx
	var n int
	if err := tx.queryRow("SELECT count(*) FROM webhook_endpoints WHERE user_id = ?", ep.UserID).Scan(&n); err != nil {
		return WebhookEndpoint{}, "", err
	}
	if n >= MaxWebhookEndpoints {
		return WebhookEndpoint{}, "", apperr.Errorf(apperr.ErrConflict, "at most %d webhook endpoints per account; delete one first", MaxWebhookEndpoints)
	}
	ep.ID, ep.Status = NewID("whe"), WebhookEnabled
	ep.CreatedAt, ep.UpdatedAt = tx.now, tx.now
	tx.hooks.forget()
	_, err := tx.exec(`INSERT INTO webhook_endpoints
		(id, user_id, livemode, url, description, event_types, status, created_at, updated_at) VALUES (?,?,?,?,?,?,?,?,?)`,
		ep.ID, ep.UserID, ep.Livemode, ep.URL, ep.Description, strings.Join(ep.EventTypes, " "), ep.Status, ms(tx.now), ms(tx.now))
	if err != nil {
		return WebhookEndpoint{}, "", err
	}
	secret, err := tx.addWebhookSecret(ep.ID, sealer)
	if err != nil {
		return WebhookEndpoint{}, "", err
	}
	return ep, secret, tx.Audit(ep.UserID, ep.Livemode, "webhook.created", "webhook_endpoint", ep.ID,
		map[string]any{"url": ep.URL, "eventTypes": ep.EventTypes})
}

// ListWebhookEndpoints lists a user's endpoints, oldest first.
func (g Webhooks) ListWebhookEndpoints(ctx context.Context, userID string) ([]WebhookEndpoint, error) {
	db := g.db
	rows, err := db.r.QueryContext(ctx, "SELECT "+webhookCols+" FROM webhook_endpoints WHERE user_id = ? ORDER BY created_at, id",
		ms(db.Now()), userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []WebhookEndpoint{}
	for rows.Next() {
		ep, err := scanWebhook(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, ep)
	}
	return out, rows.Err()
}

// FindWebhookEndpoint returns one of the user's endpoints; another user's id
// is not found, never forbidden.
func (g Webhooks) FindWebhookEndpoint(ctx context.Context, userID, id string) (WebhookEndpoint, error) {
	db := g.db
	ep, err := scanWebhook(db.r.QueryRowContext(ctx, "SELECT "+webhookCols+" FROM webhook_endpoints WHERE id = ? AND user_id = ?",
		ms(db.Now()), id, userID))
	return ep, webhookNotFound(err)
}

// LoadWebhookEndpoint returns an endpoint by id whoever owns it (delivery
// workers act for the owner).
func (g Webhooks) LoadWebhookEndpoint(ctx context.Context, id string) (WebhookEndpoint, error) {
	db := g.db
	ep, err := scanWebhook(db.r.QueryRowContext(ctx, "SELECT "+webhookCols+" FROM webhook_endpoints WHERE id = ?", ms(db.Now()), id))
	return ep, webhookNotFound(err)
}

// FindWebhookEndpoint is the in-transaction lookup; userID "" skips the owner
// check (workers act for whoever owns the endpoint).
func (g WebhooksTx) FindWebhookEndpoint(userID, id string) (WebhookEndpoint, error) {
	tx := g.tx
	ep, err := scanWebhook(tx.queryRow("SELECT "+webhookCols+" FROM webhook_endpoints WHERE id = ? AND (? = '' OR user_id = ?)",
		ms(tx.now), id, userID, userID))
	return ep, webhookNotFound(err)
}

// DeleteWebhookEndpoint removes an endpoint with its secrets and delivery log.
// Deliveries still queued find it gone and stop.
func (g WebhooksTx) DeleteWebhookEndpoint(userID, id string) error {
	tx := g.tx
	ep, err := tx.Webhooks().FindWebhookEndpoint(userID, id)
	if err != nil {
		return err
	}
	if _, err := tx.exec("DELETE FROM webhook_endpoints WHERE id = ?", id); err != nil {
		return err
	}
	return tx.Audit(userID, ep.Livemode, "webhook.deleted", "webhook_endpoint", id, map[string]any{"url": ep.URL})
}

// EnableWebhookEndpoint turns a disabled endpoint back on. Events emitted
// while it was disabled are not sent; GET /events replays them.
func (g WebhooksTx) EnableWebhookEndpoint(userID, id string) (WebhookEndpoint, error) {
	tx := g.tx
	ep, err := tx.Webhooks().FindWebhookEndpoint(userID, id)
	if err != nil || ep.Status == WebhookEnabled {
		return ep, err
	}
	tx.hooks.forget()
	if _, err := tx.exec(`UPDATE webhook_endpoints SET status = ?, disabled_reason = '', disabled_at = NULL,
		updated_at = ? WHERE id = ?`, WebhookEnabled, ms(tx.now), id); err != nil {
		return ep, err
	}
	ep.Status, ep.DisabledReason, ep.DisabledAt, ep.UpdatedAt = WebhookEnabled, "", nil, tx.now
	return ep, tx.Audit(userID, ep.Livemode, "webhook.enabled", "webhook_endpoint", id, nil)
}

// DisableWebhookEndpoint turns an endpoint off after its deliveries kept
// failing and emits webhook.disabled so the owner hears why (by another
// endpoint, or GET /events). data is the event's payload.
func (g WebhooksTx) DisableWebhookEndpoint(id, reason string, data map[string]any) error {
	tx := g.tx
	ep, err := tx.Webhooks().FindWebhookEndpoint("", id)
	if err != nil || ep.Status == WebhookDisabled {
		return err
	}
	if _, err := tx.exec(`UPDATE webhook_endpoints SET status = ?, disabled_reason = ?, disabled_at = ?,
		updated_at = ? WHERE id = ?`, WebhookDisabled, reason, ms(tx.now), ms(tx.now), id); err != nil {
		return err
	}
	if err := tx.Audit(ep.UserID, ep.Livemode, "webhook.disabled", "webhook_endpoint", id, map[string]any{"reason": reason}); err != nil {
		return err
	}
	payload := map[string]any{"webhookId": id, "url": ep.URL, "reason": reason, "disabledAt": wire.Time(tx.now)}
	for k, v := range data {
		payload[k] = v
	}
	return tx.emit(ep.UserID, ep.Livemode, EventWebhookDisabled, id, payload)
}

// WebhookTargets lists the enabled endpoints that subscribe to ev: the
// deliveries the event hook enqueues.
func (g WebhooksTx) WebhookTargets(ev Event) ([]string, error) {
	tx := g.tx
	key := hookKey{ev.UserID, ev.Livemode}
	if tx.hooks != nil && tx.hooks.none[key] {
		return nil, nil
	}
	seen := false // any row, or an error: then "none" is not known
	defer func() {
		if !seen && tx.hooks != nil {
			tx.hooks.remember(key)
		}
	}()
	rows, err := tx.query(`SELECT id, event_types FROM webhook_endpoints
		WHERE user_id = ? AND livemode = ? AND status = ?`, ev.UserID, ev.Livemode, WebhookEnabled)
	if err != nil {
		seen = true
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var ep WebhookEndpoint
		var types string
		if err := rows.Scan(&ep.ID, &types); err != nil {
			seen = true
			return nil, err
		}
		seen = true
		if ep.EventTypes = strings.Fields(types); ep.Wants(ev.Type) {
			out = append(out, ep.ID)
		}
	}
	return out, rows.Err()
}
