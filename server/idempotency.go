package server

import (
	"bytes"
	"crypto/sha256"
	"net/http"
	"regexp"
	"strings"
	"sync"

	"github.com/payoutd/payoutd/store"
)

var uuidRE = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// idemState is one request's idempotency key.
type idemState struct {
	apiKeyID string
	userID   string
	key      string
	hash     []byte
}

// newIdemState reads an Idempotency-Key. A UUID is the same key in any
// letter case, so it is kept in lower case.
func newIdemState(p principal, key string, hash []byte) (*idemState, error) {
	if !uuidRE.MatchString(key) {
		return nil, fieldError("Idempotency-Key", "must be a UUID")
	}
	return &idemState{apiKeyID: p.KeyID, userID: p.UserID, key: strings.ToLower(key), hash: hash}, nil
}

// slot is the in-flight guard's name for the key. It is per user, not per
// API key: a rotated key and its successor share stored responses, so a
// retry on one must wait for the first try on the other.
func (st *idemState) slot() string { return st.userID + "\x00" + st.key }

// inflight tracks idempotency keys whose first request is still running, so a
// concurrent duplicate gets 409 instead of racing.
type inflight struct {
	mu   sync.Mutex
	keys map[string]struct{}
}

func newInflight() *inflight { return &inflight{keys: map[string]struct{}{}} }

func (f *inflight) acquire(slot string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, busy := f.keys[slot]; busy {
		return false
	}
	f.keys[slot] = struct{}{}
	return true
}

func (f *inflight) release(slot string) {
	f.mu.Lock()
	delete(f.keys, slot)
	f.mu.Unlock()
}

// requestHash identifies a request by what it means: its method, path and
// the canonical form of its JSON body (canonicalJSON), so a retry that
// serialises the same value with its keys in another order (a Go map, say)
// or other spacing is the same request. A body that is no JSON value, or
// one canonicalJSON refuses, is taken byte for byte; it is answered 400
// either way.
//
// The canonical form is written from the tree the body was read into for
// the handler too (call.read), so a request with a key reads its body once.
func requestHash(c *call) []byte {
	r := c.r
	in := make([]byte, 0, 64+len(c.body))
	in = append(in, "canonical "...)
	in = append(in, r.Method...)
	in = append(in, ' ')
	in = append(in, r.URL.Path...)
	in = append(in, '\n')
	if !blank(c.body) {
		if rd, v, err := c.read(); err == nil {
			in = rd.write(in, v)
		} else {
			in = append(in, c.body...)
		}
	}
	h := sha256.Sum256(in)
	return h[:]
}

// bytesHash is how responses stored before requests were compared by
// meaning were keyed: the body byte for byte. A retry of such a request
// still finds its response until it expires.
func bytesHash(r *http.Request, body []byte) []byte {
	h := sha256.New()
	h.Write([]byte(r.Method + " " + r.URL.Path + "\n"))
	h.Write(body)
	return h.Sum(nil)
}

// sameRequest reports whether a stored response answers this request.
func sameRequest(stored []byte, st *idemState, r *http.Request, body []byte) bool {
	return bytes.Equal(stored, st.hash) || bytes.Equal(stored, bytesHash(r, body))
}

// saveResponse stores the response in tx when the request carries an
// Idempotency-Key; handlers call it inside the transaction of their effect.
func (c *call) saveResponse(tx *store.Tx, status int, body []byte) error {
	if c.idem == nil {
		return nil
	}
	return tx.Payments().SaveIdempotent(c.idem.apiKeyID, c.idem.key, store.IdempotentResponse{RequestHash: c.idem.hash, Status: status, Body: body})
}

// captureWriter keeps a copy of the response so a 4xx can be stored after
// the handler ran.
type captureWriter struct {
	http.ResponseWriter
	status int
	buf    bytes.Buffer
}

func (c *captureWriter) WriteHeader(code int) {
	if c.status == 0 {
		c.status = code
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *captureWriter) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	c.buf.Write(b)
	return c.ResponseWriter.Write(b)
}

// reply runs fn in one transaction and answers with status and the value fn
// returns. The exact bytes sent are stored for Idempotency-Key replays in
// that same transaction, so a replay exists exactly when the effect does.
// Without a key there is nothing to store, and the body is encoded after
// the commit, off the single write connection: the views replied this way
// are plain structs whose numbers payoutd formatted itself, so encoding
// cannot fail once the write has landed.
func (s *Server) reply(w http.ResponseWriter, c *call, status int, fn func(tx *store.Tx) (any, error)) error {
	var v any
	var out []byte
	err := s.db.WithTx(c.r.Context(), func(tx *store.Tx) (err error) {
		if v, err = fn(tx); err != nil || c.idem == nil {
			return err
		}
		if out, err = marshalBody(v); err != nil {
			return err
		}
		return c.saveResponse(tx, status, out)
	}, c.txOpts())
	if err == nil && out == nil {
		out, err = marshalBody(v)
	}
	if err != nil {
		return err
	}
	writeRaw(w, status, out)
	return nil
}
