package store

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"time"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/wire"
)

// WebhookSecretPrefix starts every signing secret (Standard Webhooks).
const WebhookSecretPrefix = "whsec_"

// webhookSecretBytes is the key length: Standard Webhooks asks for 24 to 64
// bytes; 32 matches the HMAC-SHA256 block of security.
const webhookSecretBytes = 32

// maxRotatedSecrets bounds the secrets still in their grace period, so
// repeated rotation cannot grow the signature header without limit.
const maxRotatedSecrets = 3

// FormatWebhookSecret renders key bytes as a whsec_ secret.
func FormatWebhookSecret(key []byte) string {
	return WebhookSecretPrefix + base64.StdEncoding.EncodeToString(key)
}

// secretAD binds a sealed secret to its row and endpoint, so a sealed value
// copied onto another endpoint does not open.
func secretAD(secretID, endpointID string) []byte {
	return []byte("webhook_secret:" + secretID + ":" + endpointID)
}

// addWebhookSecret makes a new current secret for the endpoint and returns it
// in whsec_ form. It is stored sealed with the master key: unlike an API key
// it cannot be stored as a hash, because every delivery needs it to sign.
func (tx *Tx) addWebhookSecret(endpointID string, sealer *Sealer) (string, error) {
	if sealer == nil {
		return "", errors.New("store: no sealer for webhook secrets")
	}
	key := make([]byte, webhookSecretBytes)
	if _, err := rand.Read(key); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	id := NewID("whs")
	_, err := tx.exec("INSERT INTO webhook_secrets (id, endpoint_id, sealed, created_at) VALUES (?,?,?,?)",
		id, endpointID, sealer.Seal(key, secretAD(id, endpointID)), ms(tx.now))
	return FormatWebhookSecret(key), err
}

// RotateWebhookSecret issues a new secret at once; the one it replaces keeps
// signing for RotationGrace (24 h) so receivers can switch without losing a
// delivery. At most maxRotatedSecrets old secrets stay in grace.
func (g WebhooksTx) RotateWebhookSecret(userID, id string, sealer *Sealer) (WebhookEndpoint, string, error) {
	tx := g.tx
	ep, err := tx.Webhooks().FindWebhookEndpoint(userID, id)
	if err != nil {
		return ep, "", err
	}
	now, until := ms(tx.now), tx.now.Add(RotationGrace)
	steps := []struct {
		q    string
		args []any
	}{
		// Old secrets whose grace has ended are of no further use.
		{"DELETE FROM webhook_secrets WHERE endpoint_id = ? AND expires_at IS NOT NULL AND expires_at <= ?", []any{id, now}},
		{"UPDATE webhook_secrets SET expires_at = ? WHERE endpoint_id = ? AND expires_at IS NULL", []any{ms(until), id}},
		{`DELETE FROM webhook_secrets WHERE endpoint_id = ? AND id NOT IN
			(SELECT id FROM webhook_secrets WHERE endpoint_id = ? ORDER BY created_at DESC, id DESC LIMIT ?)`, []any{id, id, maxRotatedSecrets}},
		{"UPDATE webhook_endpoints SET updated_at = ? WHERE id = ?", []any{now, id}},
	}
	for _, s := range steps {
		if _, err := tx.exec(s.q, s.args...); err != nil {
			return ep, "", err
		}
	}
	secret, err := tx.addWebhookSecret(id, sealer)
	if err != nil {
		return ep, "", err
	}
	ep.GraceUntil, ep.UpdatedAt = &until, tx.now
	return ep, secret, tx.Audit(userID, ep.Livemode, "webhook.secret_rotated", "webhook_endpoint", id,
		map[string]any{"previousSecretExpiresAt": wire.Time(until)})
}

// WebhookSigningSecrets returns the key bytes that sign a delivery at now:
// the current secret first, then any rotated one still in its grace period.
func (g Webhooks) WebhookSigningSecrets(ctx context.Context, endpointID string, now time.Time, sealer *Sealer) ([][]byte, error) {
	db := g.db
	if sealer == nil {
		return nil, errors.New("store: no sealer for webhook secrets")
	}
	rows, err := db.r.QueryContext(ctx, `SELECT id, sealed FROM webhook_secrets
		WHERE endpoint_id = ? AND (expires_at IS NULL OR expires_at > ?)
		ORDER BY expires_at IS NOT NULL, created_at DESC, id DESC`, endpointID, ms(now))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var keys [][]byte
	for rows.Next() {
		var id string
		var sealed []byte
		if err := rows.Scan(&id, &sealed); err != nil {
			return nil, err
		}
		key, err := sealer.Open(sealed, secretAD(id, endpointID))
		if err != nil {
			return nil, errors.New("store: webhook secret does not open with this master key")
		}
		keys = append(keys, key)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(keys) == 0 {
		return nil, apperr.Errorf(apperr.ErrNotFound, "webhook endpoint %s has no signing secret", endpointID)
	}
	return keys, nil
}
