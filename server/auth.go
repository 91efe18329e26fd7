package server

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/payoutd/payoutd/apperr"
)

// principal is who a request acts for.
type principal struct {
	UserID     string
	KeyID      string
	Livemode   bool
	Scopes     []string
	Session    bool
	RateExempt bool
	// KeyReplaces: the key replaced another, whose stored responses it
	// replays too (store.APIKey.Replaces).
	KeyReplaces bool
}

func (p principal) has(scope string) bool {
	for _, s := range p.Scopes {
		if s == scope {
			return true
		}
	}
	return false
}

// actor labels audit rows: the key, or the session on that key.
func (p principal) actor() string {
	if p.Session {
		return "session:" + p.KeyID
	}
	return "key:" + p.KeyID
}

var errUnauthorized = apperr.Errorf(apperr.ErrUnauthorized, "missing, invalid, expired or revoked credentials")

// bearer extracts the token of an Authorization: Bearer header.
func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get("Authorization")
	scheme, tok, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	tok = strings.TrimSpace(tok)
	return tok, tok != ""
}

// authenticate resolves the bearer credential: an API key (sk_…) or a session
// token signed by this server. Every failure is the same 401.
func (s *Server) authenticate(ctx context.Context, r *http.Request) (principal, error) {
	tok, ok := bearer(r)
	if !ok {
		return principal{}, errUnauthorized
	}
	if isAPIKey(tok) {
		return s.keyPrincipal(ctx, tok)
	}
	return s.tokens.verify(ctx, s.db, tok)
}

func isAPIKey(tok string) bool {
	return strings.HasPrefix(tok, "sk_sandbox_") || strings.HasPrefix(tok, "sk_live_")
}

func (s *Server) keyPrincipal(ctx context.Context, secret string) (principal, error) {
	k, err := s.db.Keys().FindAPIKeyBySecret(ctx, secret)
	if err != nil {
		if apperr.Code(err) != "" {
			return principal{}, errUnauthorized
		}
		return principal{}, err
	}
	if !k.Active(time.Now()) {
		return principal{}, errUnauthorized
	}
	return principal{UserID: k.UserID, KeyID: k.ID, Livemode: k.Livemode, Scopes: k.Scopes, RateExempt: k.RateExempt,
		KeyReplaces: k.Replaces}, nil
}
