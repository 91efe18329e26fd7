package server

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/lestrrat-go/jwx/v2/jwa"
	"github.com/lestrrat-go/jwx/v2/jwk"
	"github.com/lestrrat-go/jwx/v2/jwt"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/store"
)

// sessionTTL is the lifetime of a session token: short, so a leaked token
// is worth little, and a revoked key ends its sessions anyway.
const sessionTTL = 15 * time.Minute

// tokenIssuer signs and verifies EdDSA session tokens.
type tokenIssuer struct {
	issuer string
	signer jwk.Key
	public jwk.Set
}

func newTokenIssuer(ctx context.Context, db *store.DB, sealer *store.Sealer, issuer string) (*tokenIssuer, error) {
	keys, err := db.Keys().SigningKeys(ctx, sealer)
	if err != nil {
		return nil, err
	}
	t := &tokenIssuer{issuer: issuer, public: jwk.NewSet()}
	for i, k := range keys {
		priv, err := jwk.FromRaw(k.Priv)
		if err != nil {
			return nil, err
		}
		if err := priv.Set(jwk.KeyIDKey, k.KID); err != nil {
			return nil, err
		}
		if err := priv.Set(jwk.AlgorithmKey, jwa.EdDSA); err != nil {
			return nil, err
		}
		pub, err := jwk.PublicKeyOf(priv)
		if err != nil {
			return nil, err
		}
		if err := pub.Set(jwk.KeyUsageKey, "sig"); err != nil {
			return nil, err
		}
		if err := t.public.AddKey(pub); err != nil {
			return nil, err
		}
		if i == 0 {
			t.signer = priv
		}
	}
	return t, nil
}

// issue signs a session token for key k narrowed to scopes.
func (t *tokenIssuer) issue(p principal, scopes []string, now time.Time) (string, error) {
	tok, err := jwt.NewBuilder().
		Issuer(t.issuer).
		Subject(p.UserID).
		IssuedAt(now).
		Expiration(now.Add(sessionTTL)).
		JwtID(store.NewID("ses")).
		Claim("key_id", p.KeyID).
		Claim("scope", strings.Join(scopes, " ")).
		Claim("livemode", p.Livemode).
		Build()
	if err != nil {
		return "", err
	}
	b, err := jwt.Sign(tok, jwt.WithKey(jwa.EdDSA, t.signer))
	return string(b), err
}

// verify checks signature, issuer and expiry, then that the API key behind
// the session is still active, so revoking a key ends its sessions at once.
// A token must say EdDSA, carry exp and iat as integers (tokenShapeOK),
// and live no longer than this server issues: a token without exp (or with a far one) signed by a leaked
// signing key would otherwise never end.
func (t *tokenIssuer) verify(ctx context.Context, db *store.DB, raw string) (principal, error) {
	if !tokenShapeOK(raw) {
		return principal{}, errUnauthorized
	}
	tok, err := jwt.ParseString(raw, jwt.WithKeySet(t.public), jwt.WithValidate(true), jwt.WithIssuer(t.issuer),
		jwt.WithRequiredClaim(jwt.ExpirationKey), jwt.WithRequiredClaim(jwt.IssuedAtKey))
	if err != nil {
		return principal{}, errUnauthorized
	}
	if life := tok.Expiration().Sub(tok.IssuedAt()); life <= 0 || life > sessionTTL {
		return principal{}, errUnauthorized
	}
	keyID, _ := tok.PrivateClaims()["key_id"].(string)
	scope, _ := tok.PrivateClaims()["scope"].(string)
	if keyID == "" {
		return principal{}, errUnauthorized
	}
	k, err := db.Keys().FindAPIKey(ctx, keyID)
	if err != nil {
		if apperr.Code(err) != "" {
			return principal{}, errUnauthorized
		}
		return principal{}, fmt.Errorf("session key lookup: %w", err)
	}
	if !k.Active(time.Now()) || k.UserID != tok.Subject() {
		return principal{}, errUnauthorized
	}
	// A session never has more than its key has now.
	var scopes []string
	for _, s := range strings.Fields(scope) {
		for _, ks := range k.Scopes {
			if s == ks {
				scopes = append(scopes, s)
			}
		}
	}
	return principal{UserID: k.UserID, KeyID: k.ID, Livemode: k.Livemode, Scopes: scopes, Session: true, RateExempt: k.RateExempt,
		KeyReplaces: k.Replaces}, nil
}
