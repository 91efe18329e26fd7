package server

import (
	"net/http"
	"time"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/store"
)

// call is one authenticated API request as handlers see it.
type call struct {
	r    *http.Request
	p    principal
	body []byte
	idem *idemState
	json readBodyJSON // body as read by readJSON, once (call.read)
}

// routeOpts describe what the shared middleware does for a route.
type routeOpts struct {
	scope      string   // required scope; "" = any authenticated caller
	limitName  string   // rate-limit bucket name and key into Config.Limits
	perUser    bool     // limit per user (initiate, confirm) rather than per key
	idempotent bool     // honours Idempotency-Key
	media      string   // accepted request media type when a body is sent
	query      []string // the query parameters it takes; any other is 400
	// only, when set, is the part of the pattern's paths the route serves;
	// the rest are answered as no route would answer them (404 or 405).
	only func(r *http.Request) bool
}

type apiHandler func(w http.ResponseWriter, c *call) error

// api registers an authenticated JSON route: auth → scope → body →
// idempotency replay → rate limit → query names → handler → error mapping.
func (s *Server) api(pattern string, o routeOpts, h apiHandler) {
	if o.media == "" {
		o.media = "application/json"
	}
	if o.limitName == "" {
		o.limitName = pattern
	}
	s.limitNames = append(s.limitNames, o.limitName)
	s.mux.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		if err := s.serveAPI(w, r, o, h); err != nil {
			s.writeError(w, r, err)
		}
	})
}

func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request, o routeOpts, h apiHandler) error {
	if o.only != nil && !o.only(r) {
		s.noRoute(w, r)
		return nil
	}
	p, err := s.authenticateLimited(w, r, func() (principal, error) { return s.authenticate(r.Context(), r) })
	if err != nil {
		return err
	}
	if o.scope != "" && !p.has(o.scope) {
		return apperr.Errorf(apperr.ErrInsufficientScope, "this operation needs scope %s", o.scope)
	}
	c := &call{r: r, p: p}
	if r.Method != http.MethodGet && r.Method != http.MethodDelete {
		if c.body, err = readBody(w, r, o.media); err != nil {
			return err
		}
	}
	if key := r.Header.Get("Idempotency-Key"); o.idempotent && key != "" {
		if c.idem, err = newIdemState(p, key, requestHash(c)); err != nil {
			return err
		}
		if !s.idem.acquire(c.idem.slot()) {
			return apperr.Errorf(apperr.ErrIdempotencyRunning, "a request with this Idempotency-Key is still being processed")
		}
		defer s.idem.release(c.idem.slot())
		find := s.db.Payments().FindIdempotent
		if p.KeyReplaces {
			find = s.db.Payments().FindIdempotentAcross
		}
		prev, found, err := find(r.Context(), p.KeyID, c.idem.key)
		if err != nil {
			return err
		}
		if found {
			if !sameRequest(prev.RequestHash, c.idem, r, c.body) {
				return apperr.Errorf(apperr.ErrIdempotencyReused, "this Idempotency-Key was used with a different request")
			}
			w.Header().Set("Idempotent-Replayed", "true")
			writeRaw(w, prev.Status, prev.Body)
			return nil
		}
	}
	if err := s.rateLimit(w, p, o); err != nil {
		return err
	}
	// Not stored under an Idempotency-Key: the key names the body's
	// request, which the query string is no part of.
	if err := checkQuery(r, o.query); err != nil {
		return err
	}
	if c.idem == nil {
		return h(w, c)
	}
	cw := &captureWriter{ResponseWriter: w}
	if err := h(cw, c); err != nil {
		s.writeError(cw, r, err)
	}
	if cw.status >= 400 && cw.status < 500 {
		// A refused request is answered the same way on retry; 5xx is not
		// stored so a retry re-executes. A response the handler already
		// stored with its effect is kept (SaveIdempotent never replaces an
		// unexpired one).
		resp := store.IdempotentResponse{RequestHash: c.idem.hash, Status: cw.status, Body: cw.buf.Bytes()}
		if err := s.db.WithTx(r.Context(), func(tx *store.Tx) error { return tx.Payments().SaveIdempotent(p.KeyID, c.idem.key, resp) }); err != nil {
			s.log.ErrorContext(r.Context(), "store idempotent 4xx", "requestId", requestID(r), "error", err.Error())
		}
	}
	return nil
}

func (s *Server) rateLimit(w http.ResponseWriter, p principal, o routeOpts) error {
	if p.RateExempt {
		return nil
	}
	limit := limitDefault
	switch o.limitName {
	case "initiate":
		limit = limitInitiate
	case "confirm":
		limit = limitConfirm
	}
	if n, ok := s.cfg.Limits[o.limitName]; ok {
		limit = n
	}
	subject := "key:" + p.KeyID
	if o.perUser {
		subject = "user:" + p.UserID
	}
	ok, remaining, reset := s.limiter.allow(subject+"|"+o.limitName, limit, time.Now())
	setRateHeaders(w, limit, remaining, reset, !ok)
	if !ok {
		s.refused(o.limitName)
		return apperr.Errorf(errRateLimited, "rate limit of %d requests per minute exceeded", limit)
	}
	return nil
}

// txOpts labels a transaction with the caller and request for its audit rows.
func (c *call) txOpts() store.TxOption {
	return store.WithActor(c.p.actor(), requestID(c.r))
}
