package server

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// handleOAuthToken is the RFC 6749 client-credentials exchange: an API key
// (as Bearer or client_secret) for a short-lived session token.
func (s *Server) handleOAuthToken(w http.ResponseWriter, r *http.Request) {
	if err := s.oauthToken(w, r); err != nil {
		s.writeError(w, r, err)
	}
}

func (s *Server) oauthToken(w http.ResponseWriter, r *http.Request) error {
	body, err := readBody(w, r, "application/x-www-form-urlencoded")
	if err != nil {
		return err
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		return fieldError("body", "must be form-encoded")
	}
	if gt := form.Get("grant_type"); gt != "client_credentials" {
		return fieldError("grant_type", "must be client_credentials")
	}
	secret, ok := bearer(r)
	if !ok {
		secret = form.Get("client_secret")
	}
	p, err := s.authenticateLimited(w, r, func() (principal, error) {
		if !isAPIKey(secret) {
			return principal{}, errUnauthorized
		}
		return s.keyPrincipal(r.Context(), secret)
	})
	if err != nil {
		return err
	}
	scopes := p.Scopes
	if req := strings.Fields(form.Get("scope")); len(req) > 0 {
		for _, sc := range req {
			if !p.has(sc) {
				if len(sc) > 64 {
					sc = sc[:64] + "…"
				}
				return fieldError("scope", "the key does not have scope "+sc)
			}
		}
		scopes = req
	}
	tok, err := s.tokens.issue(p, scopes, time.Now())
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]any{
		"access_token": tok, "token_type": "Bearer", "expires_in": int(sessionTTL / time.Second), "scope": strings.Join(scopes, " "),
	})
	return nil
}

// handleJWKS publishes the session-token verification keys.
func (s *Server) handleJWKS(w http.ResponseWriter, r *http.Request) {
	b, err := json.Marshal(s.tokens.public)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "public, max-age=300")
	writeRaw(w, http.StatusOK, append(b, '\n'))
}
