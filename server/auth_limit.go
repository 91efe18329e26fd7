package server

import (
	"errors"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/payoutd/payoutd/apperr"
)

// limitAuthFailures is how many failed authentications one client address
// may make per minute; further requests from it are refused with 429 until
// the minute is over, before their credentials are looked at. Requests
// that authenticate never count, so a client with a good key is limited
// only by the address it shares with one guessing keys or replaying a
// revoked one. Behind a reverse proxy the client's address is read from
// X-Forwarded-For (Config.TrustedProxies); otherwise every client would be
// the proxy.
const limitAuthFailures = 20

// authFailuresLimit is the -rate-limits name of limitAuthFailures.
const authFailuresLimit = "auth-failures"

// authenticateLimited is authenticate behind the per-address limit on
// failures.
func (s *Server) authenticateLimited(w http.ResponseWriter, r *http.Request, auth func() (principal, error)) (principal, error) {
	limit := s.authFailLimit()
	key := "authfail|" + s.clientAddr(r)
	now := time.Now()
	if over, reset := s.authFails.over(key, limit, now); over {
		setRateHeaders(w, limit, 0, reset, true)
		s.refused(authFailuresLimit)
		return principal{}, apperr.Errorf(errRateLimited, "too many failed authentications from this address (%d per minute); wait Retry-After seconds", limit)
	}
	p, err := auth()
	if err != nil && errors.Is(err, errUnauthorized) {
		s.authFails.allow(key, limit, now)
	}
	return p, err
}

// A page whose URL or form carries a secret the client could guess (the
// hosted KYC page's session id, the console's one-time sign-in link) is an
// authentication too: answered 401 (a refused link) or 404 (no such link)
// it counts as a failure toward the same per-address limit as a bad API
// key, and once the address is over it the page is refused with 429
// before the token is looked at.
func tokenPage(path string) bool {
	return path == "/console/signin" || strings.HasPrefix(path, "/verify/") && !strings.HasPrefix(path, "/verify/assets/")
}

// tokenPageRefused answers 429 when the client's address is over the limit
// on failed authentications.
func (s *Server) tokenPageRefused(w http.ResponseWriter, r *http.Request) bool {
	limit, key := s.authFailLimit(), "authfail|"+s.clientAddr(r)
	over, reset := s.authFails.over(key, limit, time.Now())
	if !over {
		return false
	}
	setRateHeaders(w, limit, 0, reset, true)
	s.refused(authFailuresLimit)
	s.writeError(w, r, apperr.Errorf(errRateLimited, "too many failed authentications from this address (%d per minute); wait Retry-After seconds", limit))
	return true
}

// tokenPageAnswered counts a token page's refusal as a failed
// authentication.
func (s *Server) tokenPageAnswered(r *http.Request, status int) {
	if status == http.StatusUnauthorized || status == http.StatusNotFound {
		s.authFails.allow("authfail|"+s.clientAddr(r), s.authFailLimit(), time.Now())
	}
}

func (s *Server) authFailLimit() int {
	if n, ok := s.cfg.Limits[authFailuresLimit]; ok {
		return n
	}
	return limitAuthFailures
}

// clientAddr is the address a request came from: the peer, or, when the
// peer is a trusted reverse proxy, the last address in X-Forwarded-For
// that is not one of the trusted proxies.
func (s *Server) clientAddr(r *http.Request) string {
	peer, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	addr := peer.Addr().Unmap()
	if !s.trusted(addr) {
		return addr.String()
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			break
		}
		if addr = a.Unmap(); !s.trusted(addr) {
			break
		}
	}
	return addr.String()
}

func (s *Server) trusted(a netip.Addr) bool {
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}
