package console

import (
	"errors"
	"net/http"
	"strings"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/input"
	"github.com/payoutd/payoutd/jobs"
	"github.com/payoutd/payoutd/store"
)

func asStoreError(err error) (*apperr.Error, bool) {
	var e *apperr.Error
	return e, errors.As(err, &e)
}

// handleWebhookCreate adds an endpoint (input.Webhook and
// CreateWebhookEndpoint, as POST /webhooks) and shows its secret once.
func (c *Console) handleWebhookCreate(w http.ResponseWriter, r *http.Request, u user) {
	q := input.Webhook{URL: strings.TrimSpace(r.PostForm.Get("url")), Description: strings.TrimSpace(r.PostForm.Get("description")),
		EventTypes: r.PostForm["eventTypes"]}
	types, err := q.Validate(r.Context(), jobs.RuleFor(u.Livemode, c.cfg.SandboxPrivateWebhooks))
	if err == nil {
		err = textFields(map[string]string{"description": q.Description})
	}
	var ep store.WebhookEndpoint
	var secret string
	if err == nil {
		err = c.db.WithTx(r.Context(), func(tx *store.Tx) (err error) {
			ep, secret, err = tx.Webhooks().CreateWebhookEndpoint(store.WebhookEndpoint{UserID: u.ID, Livemode: u.Livemode,
				URL: q.URL, Description: q.Description, EventTypes: types}, c.cfg.Sealer)
			return err
		}, c.txOpts(r, u))
	}
	if e, ok := asStoreError(err); ok && e.Code == apperr.ErrValidation {
		c.settingsPage(w, r, u, http.StatusBadRequest, settingsData{WebhookForm: q}, err)
		return
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.secretOnce(w, r, secret, "webhook endpoint "+ep.URL, "#webhooks")
}

// handleWebhookRotate issues a new signing secret (the old one signs 24 h
// more) and shows it once.
func (c *Console) handleWebhookRotate(w http.ResponseWriter, r *http.Request, u user) {
	var ep store.WebhookEndpoint
	var secret string
	err := c.db.WithTx(r.Context(), func(tx *store.Tx) (err error) {
		ep, secret, err = tx.Webhooks().RotateWebhookSecret(u.ID, r.PathValue("id"), c.cfg.Sealer)
		return err
	}, c.txOpts(r, u))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.secretOnce(w, r, secret, "webhook endpoint "+ep.URL+" (the previous secret also signs for 24 hours)", "#webhooks")
}

func (c *Console) handleWebhookDelete(w http.ResponseWriter, r *http.Request, u user) {
	if !confirmedOr(w, r, "") {
		return
	}
	err := c.db.WithTx(r.Context(), func(tx *store.Tx) error {
		return tx.Webhooks().DeleteWebhookEndpoint(u.ID, r.PathValue("id"))
	}, c.txOpts(r, u))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.flash(r, "Webhook endpoint deleted; queued deliveries to it stop.")
	http.Redirect(w, r, Prefix+"settings#webhooks", http.StatusSeeOther)
}

type webhookData struct {
	E          store.WebhookEndpoint
	Deliveries []store.WebhookAttempt
	Total      int
}

// handleWebhook shows an endpoint and its latest delivery attempts.
func (c *Console) handleWebhook(w http.ResponseWriter, r *http.Request, u user) {
	ctx := r.Context()
	ep, err := c.db.Webhooks().FindWebhookEndpoint(ctx, u.ID, r.PathValue("id"))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	as, total, err := c.db.Webhooks().ListWebhookDeliveries(ctx, store.DeliveryFilter{UserID: u.ID, EndpointID: ep.ID, Page: 1, Limit: 50})
	if err != nil {
		c.fail(w, r, err)
		return
	}
	if len(as) > 50 {
		as = as[:50]
	}
	c.render(w, r, http.StatusOK, "webhook", page{Title: "Webhook endpoint", Nav: "settings",
		Data: webhookData{E: ep, Deliveries: as, Total: total}})
}

// handleKeyCreate creates an API key with the chosen scopes and shows its
// secret once.
func (c *Console) handleKeyCreate(w http.ResponseWriter, r *http.Request, u user) {
	q := input.APIKey{Name: strings.TrimSpace(r.PostForm.Get("name")), Scopes: r.PostForm["scopes"]}
	scopes, err := q.Validate()
	var secret string
	if err == nil {
		err = c.db.WithTx(r.Context(), func(tx *store.Tx) (err error) {
			_, secret, err = tx.Keys().CreateAPIKey(store.User{ID: u.ID, Email: u.Email, Livemode: u.Livemode}, q.Name, scopes)
			return err
		}, c.txOpts(r, u))
	}
	if e, ok := asStoreError(err); ok && e.Code == apperr.ErrValidation {
		c.settingsPage(w, r, u, http.StatusBadRequest, settingsData{KeyForm: q, errorIDs: keyFormIDs}, err)
		return
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.secretOnce(w, r, secret, "API key "+q.Name, "#keys")
}

// ownKey refuses a key of another user as not found, like the API.
func (c *Console) ownKey(r *http.Request, u user) (store.APIKey, error) {
	k, err := c.db.Keys().FindAPIKey(r.Context(), r.PathValue("id"))
	if err == nil && k.UserID != u.ID {
		err = apperr.Errorf(apperr.ErrNotFound, "api key not found")
	}
	return k, err
}

// handleKeyRotate issues a replacement (the old key works 24 h more) and
// shows its secret once.
func (c *Console) handleKeyRotate(w http.ResponseWriter, r *http.Request, u user) {
	k, err := c.ownKey(r, u)
	var secret string
	if err == nil {
		err = c.db.WithTx(r.Context(), func(tx *store.Tx) (err error) {
			_, secret, err = tx.Keys().RotateAPIKey(k.ID)
			return err
		}, c.txOpts(r, u))
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.secretOnce(w, r, secret, "the replacement of API key "+k.ID+" (the old key works 24 hours more)", "#keys")
}

// secretOnce keeps a new secret in the session for the one Settings page
// that follows and sends the browser there: a reload of that page neither
// repeats the write nor shows the secret again, and the secret never
// appears in an address.
func (c *Console) secretOnce(w http.ResponseWriter, r *http.Request, secret, of, anchor string) {
	c.sessions.Put(r.Context(), keySecret, secret)
	c.sessions.Put(r.Context(), keySecretOf, of)
	http.Redirect(w, r, Prefix+"settings"+anchor, http.StatusSeeOther)
}

// handleKeyRevoke invalidates a key at once.
func (c *Console) handleKeyRevoke(w http.ResponseWriter, r *http.Request, u user) {
	if !confirmedOr(w, r, "") {
		return
	}
	k, err := c.ownKey(r, u)
	if err == nil {
		err = c.db.WithTx(r.Context(), func(tx *store.Tx) error { return tx.Keys().RevokeAPIKey(k.ID) }, c.txOpts(r, u))
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.flash(r, "API key "+k.ID+" revoked.")
	http.Redirect(w, r, Prefix+"settings#keys", http.StatusSeeOther)
}
