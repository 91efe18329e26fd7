package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// IdempotencyTTL is how long a stored response is replayed.
const IdempotencyTTL = 24 * time.Hour

// IdempotentResponse is a stored first response to a request.
type IdempotentResponse struct {
	RequestHash []byte
	Status      int
	Body        []byte
}

// maxRotations bounds the walk back through rotated keys; a chain that
// long is far older than any stored response.
const maxRotations = 32

// FindIdempotent returns the unexpired stored response for key under
// scope (an API key that replaced none, or the console's user): one probe
// of the primary key.
func (g Payments) FindIdempotent(ctx context.Context, scope, key string) (IdempotentResponse, bool, error) {
	db := g.db
	return scanIdempotent(db.queryRow(ctx, idempotentSQL, scope, key, ms(db.Now())))
}

const idempotentSQL = `SELECT request_hash, status_code, body FROM idempotency_keys
	WHERE api_key_id = ? AND key = ? AND +expires_at > ?`

// FindIdempotentAcross returns the unexpired stored response for key under
// apiKeyID or any key it replaced (keys rotate, a client's retries
// continue across the switch), the newest key's first. CROSS JOIN and the
// unary + keep the plan on the primary key, one probe per key of the
// chain, instead of a range scan of every unexpired row.
func (g Payments) FindIdempotentAcross(ctx context.Context, apiKeyID, key string) (IdempotentResponse, bool, error) {
	db := g.db
	return scanIdempotent(db.queryRow(ctx, `WITH RECURSIVE chain(id, depth) AS (
			SELECT ?, 0
			UNION ALL
			SELECT k.id, c.depth + 1 FROM api_keys k JOIN chain c ON k.replaced_by = c.id WHERE c.depth < ?)
		SELECT i.request_hash, i.status_code, i.body FROM chain c
		CROSS JOIN idempotency_keys i ON i.api_key_id = c.id AND i.key = ? AND +i.expires_at > ?
		ORDER BY c.depth LIMIT 1`, apiKeyID, maxRotations, key, ms(db.Now())))
}

func scanIdempotent(row rowScanner) (IdempotentResponse, bool, error) {
	var r IdempotentResponse
	err := row.Scan(&r.RequestHash, &r.Status, &r.Body)
	if errors.Is(err, sql.ErrNoRows) {
		return r, false, nil
	}
	return r, err == nil, err
}

// SaveIdempotent stores the response in the same transaction as its effect,
// so a replay exists exactly when the effect does. An expired row for the same
// key is replaced.
func (g PaymentsTx) SaveIdempotent(apiKeyID, key string, r IdempotentResponse) error {
	tx := g.tx
	_, err := tx.exec(`INSERT INTO idempotency_keys (api_key_id, key, request_hash, status_code, body, created_at, expires_at)
		VALUES (?,?,?,?,?,?,?)
		ON CONFLICT (api_key_id, key) DO UPDATE SET request_hash = excluded.request_hash, status_code = excluded.status_code,
			body = excluded.body, created_at = excluded.created_at, expires_at = excluded.expires_at
		WHERE idempotency_keys.expires_at <= excluded.created_at`,
		apiKeyID, key, r.RequestHash, r.Status, r.Body, ms(tx.now), ms(tx.now.Add(IdempotencyTTL)))
	return err
}

// PurgeExpiredIdempotency deletes expired rows; run periodically.
func (g Payments) PurgeExpiredIdempotency(ctx context.Context) (int64, error) {
	db := g.db
	var n int64
	err := db.WithTx(ctx, func(tx *Tx) error {
		res, err := tx.exec("DELETE FROM idempotency_keys WHERE expires_at <= ?", ms(tx.now))
		if err == nil {
			n, err = res.RowsAffected()
		}
		return err
	})
	return n, err
}
