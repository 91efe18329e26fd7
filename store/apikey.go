package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"math/big"
	"strings"
	"time"

	"github.com/payoutd/payoutd/apperr"
)

// AllScopes are the scopes a key may carry.
var AllScopes = []string{
	"payments:write", "payments:read", "compliance:read", "ledger:read", "ledger:write",
	"tax:read", "tax:write", "webhooks:manage", "account:read", "account:write",
}

// RotationGrace is how long a rotated key keeps working.
const RotationGrace = 24 * time.Hour

// APIKey is a stored key; the secret itself is never stored, only its hash.
type APIKey struct {
	ID         string
	UserID     string
	Name       string
	Livemode   bool
	Prefix     string
	Scopes     []string
	CreatedAt  time.Time
	ExpiresAt  *time.Time
	RevokedAt  *time.Time
	ReplacedBy string
	RateExempt bool
	// Replaces: the key was made by rotating another, so responses stored
	// under its predecessors are replayed to it too (FindIdempotentAcross).
	// Fixed when the key is made: a rotation always makes a new key.
	Replaces bool
}

// Active reports whether the key authenticates at time now.
func (k APIKey) Active(now time.Time) bool {
	return k.RevokedAt == nil && (k.ExpiresAt == nil || now.Before(*k.ExpiresAt))
}

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// newSecret returns sk_sandbox_ or sk_live_ followed by 32 random bytes in base62.
func newSecret(livemode bool) string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	n := new(big.Int).SetBytes(b)
	var out []byte
	mod, base := new(big.Int), big.NewInt(62)
	for n.Sign() > 0 {
		n.DivMod(n, base, mod)
		out = append(out, base62[mod.Int64()])
	}
	for len(out) < 43 {
		out = append(out, '0')
	}
	prefix := "sk_sandbox_"
	if livemode {
		prefix = "sk_live_"
	}
	return prefix + string(out)
}

// HashSecret is how a presented key is looked up.
func HashSecret(secret string) []byte {
	h := sha256.Sum256([]byte(secret))
	return h[:]
}

// CreateAPIKey stores a new key for u and returns it with its secret, which is
// shown once and never again.
func (g KeysTx) CreateAPIKey(u User, name string, scopes []string) (APIKey, string, error) {
	tx := g.tx
	secret := newSecret(u.Livemode)
	k := APIKey{ID: NewID("key"), UserID: u.ID, Name: name, Livemode: u.Livemode,
		Prefix: secret[:strings.LastIndexByte(secret, '_')+5], Scopes: scopes, CreatedAt: tx.now}
	_, err := tx.exec(`INSERT INTO api_keys (id, user_id, name, livemode, prefix, hash, scopes, created_at)
		VALUES (?,?,?,?,?,?,?,?)`, k.ID, k.UserID, name, k.Livemode, k.Prefix, HashSecret(secret), strings.Join(scopes, " "), ms(tx.now))
	if err != nil {
		return APIKey{}, "", err
	}
	return k, secret, tx.Audit(u.ID, u.Livemode, "api_key.created", "api_key", k.ID, map[string]any{"name": name, "scopes": scopes})
}

const apiKeyCols = `id, user_id, name, livemode, prefix, scopes, created_at, expires_at, revoked_at, coalesce(replaced_by, ''), rate_exempt,
	EXISTS (SELECT 1 FROM api_keys older WHERE older.replaced_by = api_keys.id)`

func scanAPIKey(row interface{ Scan(...any) error }) (APIKey, error) {
	var k APIKey
	var scopes string
	var created int64
	var expires, revoked sql.NullInt64
	err := row.Scan(&k.ID, &k.UserID, &k.Name, &k.Livemode, &k.Prefix, &scopes, &created, &expires, &revoked, &k.ReplacedBy, &k.RateExempt, &k.Replaces)
	k.Scopes = strings.Fields(scopes)
	k.CreatedAt, k.ExpiresAt, k.RevokedAt = fromMS(created), nullMS(expires), nullMS(revoked)
	return k, err
}

// FindAPIKeyBySecret looks up a presented secret, from the keys this
// process remembers when it can (keyCache). Inactive keys are returned
// too; the caller decides with Active.
func (g Keys) FindAPIKeyBySecret(ctx context.Context, secret string) (APIKey, error) {
	db := g.db
	h := sha256.Sum256([]byte(secret))
	if err := db.keys.fresh(ctx, db.r); err != nil {
		return APIKey{}, err
	}
	k, epoch, ok := db.keys.get(h)
	if ok {
		return copyKey(k), nil
	}
	k, err := scanAPIKey(db.r.QueryRowContext(ctx, "SELECT "+apiKeyCols+" FROM api_keys WHERE hash = ?", h[:]))
	if err != nil {
		return k, notFound(err, apperr.ErrUnauthorized, "api key")
	}
	db.keys.put(h, copyKey(k), epoch)
	return k, nil
}

// FindAPIKey looks a key up by id.
func (g Keys) FindAPIKey(ctx context.Context, id string) (APIKey, error) {
	db := g.db
	k, err := scanAPIKey(db.r.QueryRowContext(ctx, "SELECT "+apiKeyCols+" FROM api_keys WHERE id = ?", id))
	return k, notFound(err, apperr.ErrNotFound, "api key")
}

// ListAPIKeys lists a user's keys, newest first.
func (g Keys) ListAPIKeys(ctx context.Context, userID string) ([]APIKey, error) {
	db := g.db
	rows, err := db.r.QueryContext(ctx, "SELECT "+apiKeyCols+" FROM api_keys WHERE user_id = ? ORDER BY created_at DESC, id DESC", userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []APIKey
	for rows.Next() {
		k, err := scanAPIKey(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

func (tx *Tx) findAPIKey(id string) (APIKey, error) {
	k, err := scanAPIKey(tx.queryRow("SELECT "+apiKeyCols+" FROM api_keys WHERE id = ?", id))
	return k, notFound(err, apperr.ErrNotFound, "api key")
}

// RotateAPIKey issues a replacement with the same owner, name and scopes, and
// lets the old key work for RotationGrace more.
func (g KeysTx) RotateAPIKey(id string) (APIKey, string, error) {
	tx := g.tx
	old, err := tx.findAPIKey(id)
	if err != nil {
		return APIKey{}, "", err
	}
	if !old.Active(tx.now) || old.ReplacedBy != "" {
		return APIKey{}, "", apperr.Errorf(apperr.ErrInvalidState, "key %s is revoked, expired or already rotated", id)
	}
	u := User{ID: old.UserID, Livemode: old.Livemode}
	k, secret, err := tx.Keys().CreateAPIKey(u, old.Name, old.Scopes)
	if err != nil {
		return APIKey{}, "", err
	}
	if old.RateExempt {
		if _, err := tx.exec("UPDATE api_keys SET rate_exempt = 1 WHERE id = ?", k.ID); err != nil {
			return APIKey{}, "", err
		}
	}
	expires := tx.now.Add(RotationGrace)
	if _, err := tx.exec("UPDATE api_keys SET expires_at = ?, replaced_by = ? WHERE id = ?", ms(expires), k.ID, id); err != nil {
		return APIKey{}, "", err
	}
	k.Replaces = true
	return k, secret, tx.Audit(old.UserID, old.Livemode, "api_key.rotated", "api_key", id, map[string]any{"replacedBy": k.ID, "expiresAt": expires})
}

// RevokeAPIKey invalidates a key at once, with no grace period.
func (g KeysTx) RevokeAPIKey(id string) error {
	tx := g.tx
	k, err := tx.findAPIKey(id)
	if err != nil {
		return err
	}
	if k.RevokedAt != nil {
		return nil
	}
	if _, err := tx.exec("UPDATE api_keys SET revoked_at = ? WHERE id = ?", ms(tx.now), id); err != nil {
		return err
	}
	return tx.Audit(k.UserID, k.Livemode, "api_key.revoked", "api_key", id, nil)
}

// SetRateExempt lifts the per-user rate limits for a key (benchmark users only).
func (g KeysTx) SetRateExempt(id string) error {
	tx := g.tx
	_, err := tx.exec("UPDATE api_keys SET rate_exempt = 1 WHERE id = ?", id)
	return err
}
