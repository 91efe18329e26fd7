package stellartest

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
)

// endpoint is one RPC server onto the network: the main one, the archive
// or a node. Each answers from its own view of the ledger and has its own
// faults; the network behind them is one.
type endpoint struct {
	http     *httptest.Server
	down     bool // every call fails at the connection
	noEvents bool // getEvents is not served, as by an RPC without it
	// faulty endpoints take the injected garbage and holds (the main one).
	faulty bool
	// full endpoints keep every ledger (the archive); the others hold the
	// retention window.
	full bool
	// latest is the last ledger the endpoint has ingested; called with
	// s.mu held.
	latest func() uint32
}

// view is what an endpoint knows when it answers a call.
type view struct {
	latest   uint32 // the last ledger it has
	latestAt int64  // when that ledger closed
	oldest   uint32 // the first ledger it still holds
	oldestAt int64
	events   bool // it serves getEvents
}

// view is where ep stands now; s.mu is held.
func (s *Server) view(ep *endpoint) view {
	v := view{latest: ep.latest(), events: !ep.noEvents}
	v.latestAt = s.closedAt(v.latest)
	v.oldest, v.oldestAt = s.oldestAsOf(v.latest)
	if ep.full {
		v.oldest, v.oldestAt = 1, 0
	}
	return v
}

// start serves ep on a new local HTTP server.
func (s *Server) start(ep *endpoint) {
	ep.http = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.serve(ep, w, r) }))
}

type rpcRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (s *Server) serve(ep *endpoint, w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	down := ep.down
	garbage := ep.faulty && s.garbage > 0
	if garbage {
		s.garbage--
	}
	s.mu.Unlock()
	if down {
		hangUp(w)
		return
	}
	var req rpcRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeRPC(w, nil, nil, &rpcError{Code: -32700, Message: "parse error"})
		return
	}
	s.mu.Lock()
	var hold chan struct{}
	if ep.faulty {
		hold = s.held[req.Method]
	}
	if hold != nil {
		s.waiting[req.Method]++
	}
	s.mu.Unlock()
	if hold != nil {
		select {
		case <-hold:
		case <-r.Context().Done():
		}
		s.mu.Lock()
		s.waiting[req.Method]--
		s.mu.Unlock()
		if r.Context().Err() != nil {
			return
		}
	}
	if garbage {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":{"status":17,"latestLedger":"x","resultXdr":"%%%"`))
		return
	}
	result, rerr, lose := s.call(ep, req.Method, req.Params)
	if lose {
		hangUp(w)
		return
	}
	writeRPC(w, req.ID, result, rerr)
}

// hangUp closes the connection without an answer: the client cannot know
// whether its request was handled.
func hangUp(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if c, _, err := hj.Hijack(); err == nil {
			if tc, ok := c.(*net.TCPConn); ok {
				tc.SetLinger(0)
			}
			c.Close()
			return
		}
	}
	w.WriteHeader(http.StatusBadGateway)
}

func writeRPC(w http.ResponseWriter, id json.RawMessage, result any, e *rpcError) {
	w.Header().Set("Content-Type", "application/json")
	body := map[string]any{"jsonrpc": "2.0", "id": id}
	if e != nil {
		body["error"] = e
	} else {
		body["result"] = result
	}
	json.NewEncoder(w).Encode(body)
}
