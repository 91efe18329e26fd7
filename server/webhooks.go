package server

import (
	"net/http"

	"github.com/payoutd/payoutd/input"
	"github.com/payoutd/payoutd/jobs"
	"github.com/payoutd/payoutd/store"
)

// webhookView is an endpoint as the API shows it. Secret is set only in the
// responses of create and rotate: it is shown once and never again.
type webhookView struct {
	ID             string   `json:"id"`
	URL            string   `json:"url"`
	Description    string   `json:"description"`
	EventTypes     []string `json:"eventTypes"` // empty: every type
	Status         string   `json:"status"`
	DisabledReason string   `json:"disabledReason,omitempty"`
	DisabledAt     string   `json:"disabledAt,omitempty"`
	Livemode       bool     `json:"livemode"`
	// PreviousSecretExpiresAt is when the last rotated secret stops signing.
	PreviousSecretExpiresAt string `json:"previousSecretExpiresAt,omitempty"`
	CreatedAt               string `json:"createdAt"`
	UpdatedAt               string `json:"updatedAt"`
	Secret                  string `json:"secret,omitempty"`
}

func viewWebhook(ep store.WebhookEndpoint) webhookView {
	v := webhookView{ID: ep.ID, URL: ep.URL, Description: ep.Description, EventTypes: ep.EventTypes, Status: ep.Status,
		DisabledReason: ep.DisabledReason, Livemode: ep.Livemode, CreatedAt: ts(ep.CreatedAt), UpdatedAt: ts(ep.UpdatedAt)}
	if v.EventTypes == nil {
		v.EventTypes = []string{}
	}
	if ep.DisabledAt != nil {
		v.DisabledAt = ts(*ep.DisabledAt)
	}
	if ep.GraceUntil != nil {
		v.PreviousSecretExpiresAt = ts(*ep.GraceUntil)
	}
	return v
}

// writeSecret answers with a body holding a secret, which no cache may keep.
func writeSecret(w http.ResponseWriter, status int, v webhookView) {
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, status, v)
}

// handleWebhookCreate is POST /webhooks. Live keys may only register public
// targets (jobs.CheckWebhookURL); sandbox keys may use any host.
func (s *Server) handleWebhookCreate(w http.ResponseWriter, c *call) error {
	var req input.Webhook
	if err := c.decode(&req); err != nil {
		return err
	}
	types, err := req.Validate(c.r.Context(), jobs.RuleFor(c.p.Livemode, s.cfg.SandboxPrivateWebhooks))
	if err != nil {
		return err
	}
	return s.replyWithSecret(w, c, http.StatusCreated, func(tx *store.Tx) (store.WebhookEndpoint, string, error) {
		return tx.Webhooks().CreateWebhookEndpoint(store.WebhookEndpoint{UserID: c.p.UserID, Livemode: c.p.Livemode,
			URL: req.URL, Description: req.Description, EventTypes: types}, s.cfg.Sealer)
	})
}

type webhookList struct {
	Items []webhookView `json:"items"`
}

func (s *Server) handleWebhookList(w http.ResponseWriter, c *call) error {
	eps, err := s.db.Webhooks().ListWebhookEndpoints(c.r.Context(), c.p.UserID)
	if err != nil {
		return err
	}
	out := webhookList{Items: make([]webhookView, 0, len(eps))}
	for _, ep := range eps {
		out.Items = append(out.Items, viewWebhook(ep))
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s *Server) handleWebhookGet(w http.ResponseWriter, c *call) error {
	ep, err := s.db.Webhooks().FindWebhookEndpoint(c.r.Context(), c.p.UserID, c.r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, viewWebhook(ep))
	return nil
}

// handleWebhookDelete is DELETE /webhooks/{id}: 204, and queued deliveries
// to it stop.
func (s *Server) handleWebhookDelete(w http.ResponseWriter, c *call) error {
	err := s.db.WithTx(c.r.Context(), func(tx *store.Tx) error {
		return tx.Webhooks().DeleteWebhookEndpoint(c.p.UserID, c.r.PathValue("id"))
	}, c.txOpts())
	if err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// handleWebhookRotate is POST /webhooks/{id}/rotate: the new secret signs
// from now on, the old one too for 24 h (both signatures in the header).
func (s *Server) handleWebhookRotate(w http.ResponseWriter, c *call) error {
	if err := c.noBody(); err != nil {
		return err
	}
	return s.replyWithSecret(w, c, http.StatusOK, func(tx *store.Tx) (store.WebhookEndpoint, string, error) {
		return tx.Webhooks().RotateWebhookSecret(c.p.UserID, c.r.PathValue("id"), s.cfg.Sealer)
	})
}

// replyWithSecret runs the transaction that creates or rotates an
// endpoint's secret and answers with the endpoint and that secret, shown
// this once.
func (s *Server) replyWithSecret(w http.ResponseWriter, c *call, status int,
	fn func(tx *store.Tx) (store.WebhookEndpoint, string, error)) error {
	var ep store.WebhookEndpoint
	var secret string
	err := s.db.WithTx(c.r.Context(), func(tx *store.Tx) (err error) {
		ep, secret, err = fn(tx)
		return err
	}, c.txOpts())
	if err != nil {
		return err
	}
	v := viewWebhook(ep)
	v.Secret = secret
	writeSecret(w, status, v)
	return nil
}

// handleWebhookEnable is POST /webhooks/{id}/enable: a disabled endpoint gets
// new events again; the ones it missed are in GET /events.
func (s *Server) handleWebhookEnable(w http.ResponseWriter, c *call) error {
	if err := c.noBody(); err != nil {
		return err
	}
	var ep store.WebhookEndpoint
	err := s.db.WithTx(c.r.Context(), func(tx *store.Tx) (err error) {
		ep, err = tx.Webhooks().EnableWebhookEndpoint(c.p.UserID, c.r.PathValue("id"))
		return err
	}, c.txOpts())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, viewWebhook(ep))
	return nil
}

type deliveryView struct {
	ID          string `json:"id"`
	EventID     string `json:"eventId"`
	EventType   string `json:"eventType"`
	Attempt     int    `json:"attempt"`
	Status      string `json:"status"`
	StatusCode  *int   `json:"responseCode"` // null when no response arrived
	DurationMS  int64  `json:"durationMs"`
	Error       string `json:"error,omitempty"`
	NextRetryAt string `json:"nextRetryAt,omitempty"`
	CreatedAt   string `json:"createdAt"`
}

type deliveryList struct {
	Items []deliveryView `json:"items"`
	pageInfo
}

// handleWebhookDeliveries is GET /webhooks/{id}/deliveries: every attempt,
// newest first, optionally of one event (eventId=).
func (s *Server) handleWebhookDeliveries(w http.ResponseWriter, c *call) error {
	win, err := listParams(c.r, 20, idPrefixed("whd_"), "a delivery id (whd_…)")
	if err != nil {
		return err
	}
	eventID := c.r.URL.Query().Get("eventId")
	if eventID != "" && !validEventID(eventID) {
		return fieldError("eventId", "must be an event id (evt_…)")
	}
	as, total, err := s.db.Webhooks().ListWebhookDeliveries(c.r.Context(), store.DeliveryFilter{
		UserID: c.p.UserID, EndpointID: c.r.PathValue("id"), EventID: eventID, After: win.After, Page: win.Page, Limit: win.Limit})
	if err != nil {
		return err
	}
	as, info := pageOf(as, win, total, func(a store.WebhookAttempt) string { return a.ID })
	out := deliveryList{Items: make([]deliveryView, 0, len(as)), pageInfo: info}
	for _, a := range as {
		v := deliveryView{ID: a.ID, EventID: a.EventID, EventType: a.EventType, Attempt: a.Attempt, Status: a.Status,
			DurationMS: a.Duration.Milliseconds(), Error: a.Error, CreatedAt: ts(a.CreatedAt)}
		if a.ResponseCode != 0 {
			v.StatusCode = &a.ResponseCode
		}
		if a.NextRetryAt != nil {
			v.NextRetryAt = ts(*a.NextRetryAt)
		}
		out.Items = append(out.Items, v)
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
