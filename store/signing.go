package store

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
)

// SigningKey signs session tokens.
type SigningKey struct {
	KID  string
	Priv ed25519.PrivateKey
}

// SigningKeys returns every session-token signing key, newest first, creating
// the first one when there is none. The private key is sealed under the
// master key like vault keys.
func (g Keys) SigningKeys(ctx context.Context, sealer *Sealer) ([]SigningKey, error) {
	db := g.db
	var keys []SigningKey
	err := db.WithTx(ctx, func(tx *Tx) error {
		keys = nil // a run again starts afresh (see WithTx)
		rows, err := tx.query("SELECT kid, private_key FROM signing_keys ORDER BY created_at DESC")
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var kid string
			var sealed []byte
			if err := rows.Scan(&kid, &sealed); err != nil {
				return err
			}
			seed, err := sealer.Open(sealed, []byte(kid))
			if err != nil {
				return fmt.Errorf("open signing key %s (wrong master key?): %w", kid, err)
			}
			keys = append(keys, SigningKey{KID: kid, Priv: ed25519.NewKeyFromSeed(seed)})
		}
		if err := rows.Err(); err != nil || len(keys) > 0 {
			return err
		}
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return err
		}
		kid := NewID("sig")
		if _, err := tx.exec("INSERT INTO signing_keys (kid, private_key, created_at) VALUES (?,?,?)",
			kid, sealer.Seal(priv.Seed(), []byte(kid)), ms(tx.now)); err != nil {
			return err
		}
		keys = append(keys, SigningKey{KID: kid, Priv: priv})
		return nil
	})
	return keys, err
}
